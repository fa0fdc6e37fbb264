#include "core/analysis/explicit_type.h"

#include "core/sharding/axis_refs.h"
#include "core/sharding/notation.h"

#include <algorithm>

namespace shardscope::analysis {

namespace {

// An axis as JAX would name it; sub-axes (which JAX cannot express) keep Shardy's `:(m)k`.
std::string axisName(const ir::AxisRef& axis) {
  std::string out = axis.name;
  if (axis.subAxis)
    out += ":(" + std::to_string(axis.subAxis->preSize) + ")" + std::to_string(axis.subAxis->size);
  return out;
}

std::string pyStr(const ir::AxisRef& axis) { return "'" + axisName(axis) + "'"; }

// `_get_shape_sharding_str` of jax/_src/core.py: `4@X`, `8@(X,Y)` or `4`.
std::string shapeShardingStr(const ExplicitType& type) {
  std::string out;
  std::span<const int64_t> shape =
      type.type.isTensor() ? type.type.shape() : std::span<const int64_t>();
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d)
      out += ',';
    out += shape[d] == ir::kDynamicSize ? "?" : std::to_string(shape[d]);
    const DimSpec* dim = d < type.dims.size() ? &type.dims[d] : nullptr;
    if (!dim || dim->empty())
      continue;
    out += '@';
    if (dim->size() == 1) {
      out += axisName(dim->front());
      continue;
    }
    out += '(';
    for (size_t i = 0; i < dim->size(); ++i)
      out += (i ? "," : "") + axisName((*dim)[i]);
    out += ')';
  }
  return out;
}

// `_vma_ur_str`: `{U:X}` or `{U:(X,Y)}`; empty when nothing is unreduced.
std::string unreducedStr(const ExplicitType& type) {
  std::vector<std::string> axes;
  for (const ir::AxisRef& axis : type.unreduced)
    axes.push_back(axisName(axis));
  return sharding::jaxVaryingUnreducedSuffix({}, axes);
}

std::string typeStr(const ExplicitType& type, std::string dtype) {
  if (!type.type.isTensor())
    return type.type ? type.type.str() : std::string("?");
  return dtype + "[" + shapeShardingStr(type) + "]" + unreducedStr(type);
}

// Keeps the axes of `axes` that are Explicit in `mesh`. The type shows only explicit axes; how the
// compiler further splits a dimension over Auto axes is not part of it (JAX: the concrete sharding
// may be more specific than the type's).
std::vector<ir::AxisRef> explicitAxesOf(const std::vector<ir::AxisRef>& axes,
                                        const AxisTypes& types, std::string_view mesh) {
  std::vector<ir::AxisRef> kept;
  for (const ir::AxisRef& axis : axes)
    if (types.isExplicit(mesh, axis.name))
      kept.push_back(axis);
  return kept;
}

} // namespace

bool ExplicitType::isUnsharded() const {
  return unreduced.empty() &&
         std::all_of(dims.begin(), dims.end(), [](const DimSpec& d) { return d.empty(); });
}

bool ExplicitType::sameSharding(const ExplicitType& other) const {
  bool meshOk = mesh.empty() || other.mesh.empty() || mesh == other.mesh;
  return meshOk && dims == other.dims && unreduced == other.unreduced;
}

ExplicitType unshardedType(ir::Type type, std::string mesh) {
  ExplicitType result;
  result.type = type;
  result.mesh = std::move(mesh);
  if (type.isTensor())
    result.dims.resize(type.shape().size());
  return result;
}

ExplicitType unknownType(ir::Type type) {
  ExplicitType result = unshardedType(type, "");
  result.known = false;
  return result;
}

ExplicitType typeFromSharding(ir::Type type, const ir::TensorSharding* sharding,
                              const AxisTypes& types, std::string_view contextMesh) {
  std::string_view mesh = sharding ? std::string_view(sharding->meshName) : std::string_view();
  // Inline meshes have no name and hence no explicit axes.
  if (!sharding || mesh.empty() || !types.hasExplicitAxis(mesh))
    return unshardedType(type, std::string(contextMesh));
  ExplicitType result = unshardedType(type, std::string(mesh));
  for (size_t d = 0; d < result.dims.size() && d < sharding->dims.size(); ++d)
    result.dims[d] = explicitAxesOf(sharding->dims[d].axes, types, mesh);
  result.unreduced = explicitAxesOf(sharding->unreducedAxes, types, mesh);
  return result;
}

std::vector<std::string> duplicateAxes(const ExplicitType& type) {
  std::vector<ir::AxisRef> all;
  for (const DimSpec& dim : type.dims)
    all.insert(all.end(), dim.begin(), dim.end());
  all.insert(all.end(), type.unreduced.begin(), type.unreduced.end());
  std::vector<std::string> duplicates;
  for (size_t i = 0; i < all.size(); ++i)
    for (size_t j = i + 1; j < all.size(); ++j)
      if (sharding::axisOverlaps(all[i], all[j]) &&
          std::find(duplicates.begin(), duplicates.end(), all[i].name) == duplicates.end())
        duplicates.push_back(all[i].name);
  return duplicates;
}

std::string jaxLongDtypeName(ir::ElementType type) {
  using ir::ElementType;
  switch (type) {
  case ElementType::F64:
    return "float64";
  case ElementType::F32:
    return "float32";
  case ElementType::F16:
    return "float16";
  case ElementType::BF16:
    return "bfloat16";
  case ElementType::I1:
    return "bool";
  case ElementType::Index:
    return "int64";
  case ElementType::Complex64:
    return "complex64";
  case ElementType::Complex128:
    return "complex128";
  default:
    break;
  }
  // The short names are NumPy's with `float`/`uint`/`int` abbreviated; undo that.
  std::string name = sharding::jaxDtypeName(type);
  if (name.starts_with("f8_"))
    return "float8_" + name.substr(3);
  if (name.starts_with('u'))
    return "uint" + name.substr(1);
  if (name.starts_with('i'))
    return "int" + name.substr(1);
  return name;
}

std::string shortTypeStr(const ExplicitType& type) {
  return typeStr(type, type.type.isTensor() ? sharding::jaxDtypeName(type.type.elementType())
                                            : std::string());
}

std::string longTypeStr(const ExplicitType& type) {
  return typeStr(type,
                 type.type.isTensor() ? jaxLongDtypeName(type.type.elementType()) : std::string());
}

std::string dimSpecRepr(const DimSpec& dim) {
  if (dim.empty())
    return "None";
  if (dim.size() == 1)
    return pyStr(dim.front());
  std::string out = "(";
  for (size_t i = 0; i < dim.size(); ++i)
    out += (i ? ", " : "") + pyStr(dim[i]);
  return out + ")";
}

std::string specTupleRepr(std::span<const DimSpec> dims) {
  std::string out = "(";
  for (size_t i = 0; i < dims.size(); ++i)
    out += (i ? ", " : "") + dimSpecRepr(dims[i]);
  // Python writes a one-element tuple with a trailing comma.
  return out + (dims.size() == 1 ? ",)" : ")");
}

std::string partitionSpecRepr(const ExplicitType& type) {
  std::string out = "P(";
  for (size_t i = 0; i < type.dims.size(); ++i)
    out += (i ? ", " : "") + dimSpecRepr(type.dims[i]);
  // JAX prints the repr of its partitions tuple without the parentheses, so one entry keeps the
  // tuple's trailing comma: `P('X',)`.
  if (type.dims.size() == 1)
    out += ",";
  if (!type.unreduced.empty()) {
    out += type.dims.empty() ? "unreduced={" : ", unreduced={";
    for (size_t i = 0; i < type.unreduced.size(); ++i)
      out += (i ? ", " : "") + pyStr(type.unreduced[i]);
    out += "}";
  }
  return out + ")";
}

std::string abstractMeshRepr(const ir::Mesh* mesh, std::string_view meshName,
                             const AxisTypes& types) {
  if (!mesh || mesh->axes.empty())
    return "AbstractMesh((), axis_types=())";
  std::string shape, axisTypes;
  for (size_t i = 0; i < mesh->axes.size(); ++i) {
    const ir::MeshAxis& axis = mesh->axes[i];
    shape += (i ? ", '" : "'") + axis.name + "': " + std::to_string(axis.size);
    axisTypes += (i ? ", " : "") + std::string(axisTypeName(types.typeOf(meshName, axis.name)));
  }
  if (mesh->axes.size() == 1)
    axisTypes += ",";
  return "AbstractMesh(" + shape + ", axis_types=(" + axisTypes + "))";
}

std::string namedShardingRepr(const ExplicitType& type, const ir::Mesh* mesh,
                              const AxisTypes& types) {
  return "NamedSharding(mesh=" + abstractMeshRepr(mesh, type.mesh, types) +
         ", spec=" + partitionSpecRepr(type) + ")";
}

} // namespace shardscope::analysis
