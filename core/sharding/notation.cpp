#include "core/sharding/notation.h"

#include "core/ir/attribute.h"

#include <cctype>

namespace shardscope::sharding {

namespace {

// `x` or `x:(1)2`, quoted with `quote` around the name.
std::string axisText(const ir::AxisRef& axis, const char* quote) {
  std::string out = quote + axis.name + quote;
  if (axis.subAxis)
    out += ":(" + std::to_string(axis.subAxis->preSize) + ")" + std::to_string(axis.subAxis->size);
  return out;
}

std::string joined(const std::vector<ir::AxisRef>& axes, const char* quote, const char* sep) {
  std::string out;
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i)
      out += sep;
    out += axisText(axes[i], quote);
  }
  return out;
}

} // namespace

std::string shardyNotation(const ir::TensorSharding& sharding) {
  return ir::Attribute::sharding(sharding).str();
}

std::string partitionSpecNotation(const ir::TensorSharding& sharding) {
  std::string out = "P(";
  for (size_t d = 0; d < sharding.dims.size(); ++d) {
    if (d)
      out += ", ";
    const ir::DimensionSharding& dim = sharding.dims[d];
    if (dim.axes.empty())
      out += dim.isClosed ? "None" : "P.UNCONSTRAINED";
    else if (dim.axes.size() == 1)
      out += axisText(dim.axes[0], "'");
    else
      out += "(" + joined(dim.axes, "'", ", ") + ")";
  }
  if (!sharding.unreducedAxes.empty()) {
    if (!sharding.dims.empty())
      out += ", ";
    out += "unreduced={" + joined(sharding.unreducedAxes, "'", ", ") + "}";
  }
  return out + ")";
}

std::string jaxVaryingUnreducedSuffix(std::span<const std::string> varying,
                                      std::span<const std::string> unreduced,
                                      std::string_view unreducedKind) {
  auto set = [](std::string prefix, std::span<const std::string> axes) {
    std::string names;
    for (size_t i = 0; i < axes.size(); ++i)
      names += (i ? "," : "") + axes[i];
    return prefix + ":" + (axes.size() == 1 ? names : "(" + names + ")");
  };
  std::string out;
  if (!varying.empty())
    out = set("V", varying);
  if (!unreduced.empty()) {
    std::string prefix = unreducedKind.empty() || unreducedKind == "sum"
                             ? std::string("U")
                             : "U_" + std::string(unreducedKind);
    out += (out.empty() ? "" : ", ") + set(prefix, unreduced);
  }
  return out.empty() ? out : "{" + out + "}";
}

std::string jaxTypedNotation(const ir::TensorSharding& sharding, ir::Type type,
                             std::span<const std::string> varying) {
  if (!type || !type.isTensor())
    return type ? type.str() : std::string();
  std::string out = jaxDtypeName(type.elementType()) + "[";
  std::span<const int64_t> shape = type.shape();
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d)
      out += ",";
    out += shape[d] == ir::kDynamicSize ? "?" : std::to_string(shape[d]);
    if (d >= sharding.dims.size() || sharding.dims[d].axes.empty())
      continue;
    const std::vector<ir::AxisRef>& axes = sharding.dims[d].axes;
    out += "@";
    out += axes.size() == 1 ? axisText(axes[0], "") : "(" + joined(axes, "", ",") + ")";
  }
  out += "]";
  std::vector<std::string> unreduced;
  for (const ir::AxisRef& axis : sharding.unreducedAxes)
    unreduced.push_back(axisText(axis, ""));
  return out + jaxVaryingUnreducedSuffix(varying, unreduced, sharding.unreducedKind);
}

std::string jaxDtypeName(ir::ElementType type) {
  using ir::ElementType;
  switch (type) {
  case ElementType::I1:
    return "bool";
  case ElementType::Complex64:
    return "c64";
  case ElementType::Complex128:
    return "c128";
  case ElementType::UI2:
  case ElementType::UI4:
  case ElementType::UI8:
  case ElementType::UI16:
  case ElementType::UI32:
  case ElementType::UI64:
    return "u" + std::string(ir::elementTypeName(type).substr(2));
  case ElementType::F8E4M3FN:
  case ElementType::F8E5M2:
  case ElementType::F8E4M3FNUZ:
  case ElementType::F8E5M2FNUZ:
  case ElementType::F8E4M3B11FNUZ: {
    // MLIR `f8E4M3FN` is NumPy's `float8_e4m3fn`, short `f8_e4m3fn`.
    std::string name(ir::elementTypeName(type).substr(2));
    for (char& c : name)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return "f8_" + name;
  }
  default:
    return std::string(ir::elementTypeName(type));
  }
}

} // namespace shardscope::sharding
