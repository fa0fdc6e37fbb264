#include "core/verify/detail/op_context.h"

#include "core/ir/attribute.h"
#include "core/ir/quant_type.h"
#include "core/ir/stablehlo_attrs.h"

#include <unordered_set>

namespace shardscope::verify::detail {

bool OpContext::error(const std::string& message) const {
  sink.report({support::Severity::Error, message, op.loc(), {}});
  return false;
}

bool OpContext::opError(const std::string& message) const {
  return error("'" + std::string(op.name()) + "' op " + message);
}

std::optional<int64_t> OpContext::intAttr(std::string_view name) const {
  return ir::stablehlo::intAttr(op, name);
}

std::optional<std::vector<int64_t>> OpContext::intList(std::string_view name) const {
  return ir::stablehlo::intListAttr(op, name);
}

std::vector<int64_t> OpContext::intListOrEmpty(std::string_view name) const {
  return intList(name).value_or(std::vector<int64_t>{});
}

bool OpContext::missingAttr(std::string_view name) const {
  return opError("requires attribute '" + std::string(name) + "'");
}

bool allTensors(const ir::Operation& op) {
  for (const ir::Value* v : op.operands())
    if (!isTensor(v->type()))
      return false;
  for (const auto& r : op.results())
    if (!isTensor(r->type()))
      return false;
  return true;
}

bool compatibleShapes(std::span<const int64_t> a, std::span<const int64_t> b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!compatibleDims(a[i], b[i]))
      return false;
  return true;
}

bool compatibleTypes(ir::Type a, ir::Type b) {
  if (!a || !b || a == b)
    return true;
  // StableHLO's `isCompatibleElementTypeForHloTypeInference`: quantized types agree on their
  // storage and expressed types (their parameters are the ops' own constraints).
  std::optional<ir::QuantType> qa = ir::quantTypeOf(a), qb = ir::quantTypeOf(b);
  if (qa && qb)
    return qa->storage == qb->storage && qa->expressed == qb->expressed &&
           compatibleShapes(qa->shape, qb->shape);
  if ((qa && isTensor(b)) || (qb && isTensor(a)))
    return false;
  using Kind = ir::Type::Kind;
  if (a.kind() == Kind::Opaque || b.kind() == Kind::Opaque)
    return true;
  if (a.kind() != b.kind())
    return false;
  if (a.kind() == Kind::Tensor)
    return a.elementType() == b.elementType() && compatibleShapes(a.shape(), b.shape());
  if (a.kind() == Kind::Tuple) {
    if (a.elements().size() != b.elements().size())
      return false;
    for (size_t i = 0; i < a.elements().size(); ++i)
      if (!compatibleTypes(a.elements()[i], b.elements()[i]))
        return false;
    return true;
  }
  return a == b;
}

bool sameElementType(ir::Type a, ir::Type b) {
  if (!isTensor(a) || !isTensor(b))
    return true;
  return a.elementType() == b.elementType();
}

std::string joinInts(std::span<const int64_t> values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      out += ", ";
    out += std::to_string(values[i]);
  }
  return out;
}

std::string dimsString(std::span<const int64_t> dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      out += ", ";
    out += isStaticDim(dims[i]) ? std::to_string(dims[i]) : "?";
  }
  return out + "]";
}

std::string quoted(ir::Type type) { return "'" + (type ? type.str() : "<<NULL TYPE>>") + "'"; }

std::string quotedList(std::span<const ir::Type> types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) {
    if (i)
      out += ", ";
    out += quoted(types[i]);
  }
  return out;
}

bool checkInferredTypes(const OpContext& ctx, const std::vector<ir::Type>& inferred) {
  bool ok = inferred.size() == ctx.op.numResults();
  for (size_t i = 0; ok && i < inferred.size(); ++i)
    ok = compatibleTypes(inferred[i], ctx.resultType(static_cast<unsigned>(i)));
  if (ok)
    return true;
  std::vector<ir::Type> actual;
  for (const auto& r : ctx.op.results())
    actual.push_back(r->type());
  return ctx.opError("inferred type(s) " + quotedList(inferred) +
                     " are incompatible with return type(s) of operation " + quotedList(actual));
}

bool checkInferredTensor(const OpContext& ctx, std::span<const int64_t> shape,
                         ir::ElementType element) {
  return checkInferredTypes(ctx, {ir::Type::tensor(shape, element)});
}

std::optional<ir::Type> inferMostSpecificType(const OpContext& ctx,
                                              std::span<const ir::Type> types) {
  if (types.empty())
    return std::nullopt;
  int64_t rank = types.front().rank();
  for (const ir::Type& t : types)
    if (t.rank() != rank) {
      ctx.error("Mismatched ranks of types" + std::to_string(rank) + " vs " +
                std::to_string(t.rank()));
      return std::nullopt;
    }
  std::vector<int64_t> shape(types.front().shape().begin(), types.front().shape().end());
  for (const ir::Type& t : types)
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = t.shape()[d];
      if (isStaticDim(shape[d]) && isStaticDim(size) && shape[d] != size) {
        ctx.error("Mismatched dimension sizes " + std::to_string(shape[d]) + " and " +
                  std::to_string(size) + " in dimension " + std::to_string(d));
        return std::nullopt;
      }
      if (!isStaticDim(shape[d]))
        shape[d] = size;
    }
  return ir::Type::tensor(shape, types.front().elementType());
}

std::optional<std::vector<int64_t>> constantInts(const ir::Value* value) {
  const ir::Operation* def = value->definingOp();
  if (!def || !def->is("stablehlo.constant"))
    return std::nullopt;
  const auto* dense = def->attr("value").as<ir::DenseElementsAttr>();
  if (!dense || !isTensor(dense->type) || !ir::isIntegerElement(dense->type.elementType()))
    return std::nullopt;
  std::vector<int64_t> out;
  for (int64_t i = 0; i < dense->numElements(); ++i)
    out.push_back(dense->intAt(i));
  return out;
}

namespace {

std::vector<ir::Type> tensorTypes(const ir::Operation& op) {
  std::vector<ir::Type> types;
  for (const ir::Value* v : op.operands())
    if (isTensor(v->type()))
      types.push_back(v->type());
  for (const auto& r : op.results())
    if (isTensor(r->type()))
      types.push_back(r->type());
  return types;
}

} // namespace

bool checkSameElementTypes(const OpContext& ctx) {
  std::vector<ir::Type> types = tensorTypes(ctx.op);
  for (const ir::Type& t : types)
    if (t.elementType() != types.front().elementType())
      return ctx.opError("requires the same element type for all operands and results");
  return true;
}

bool checkCompatibleElementTypes(const OpContext& ctx) {
  std::vector<ir::Type> types = tensorTypes(ctx.op);
  for (const ir::Type& t : types)
    if (t.elementType() != types.front().elementType())
      return ctx.opError("requires compatible element types for all operands and results");
  return true;
}

bool checkCompatibleTypes(const OpContext& ctx) {
  std::vector<ir::Type> types;
  for (const ir::Value* v : ctx.op.operands())
    types.push_back(v->type());
  for (const auto& r : ctx.op.results())
    types.push_back(r->type());
  for (const ir::Type& t : types)
    if (!compatibleTypes(t, types.front()))
      return ctx.opError("requires compatible types for all operands and results");
  return true;
}

bool checkSameShapes(const OpContext& ctx) {
  std::vector<ir::Type> types = tensorTypes(ctx.op);
  for (const ir::Type& t : types)
    if (!compatibleShapes(t.shape(), types.front().shape()))
      return ctx.opError("requires the same shape for all operands and results");
  return true;
}

bool checkElementwise(const OpContext& ctx) {
  // MLIR's `verifyCompatibleShapes`: one rank, and at most one static size per dimension.
  std::vector<ir::Type> types = tensorTypes(ctx.op);
  auto fail = [&] {
    return ctx.opError("all non-scalar operands/results must have the same shape and base type");
  };
  for (const ir::Type& t : types)
    if (t.rank() != types.front().rank())
      return fail();
  for (int64_t d = 0; !types.empty() && d < types.front().rank(); ++d) {
    int64_t size = ir::kDynamicSize;
    for (const ir::Type& t : types) {
      int64_t s = t.shape()[d];
      if (isStaticDim(s) && isStaticDim(size) && s != size)
        return fail();
      if (isStaticDim(s))
        size = s;
    }
  }
  return true;
}

bool checkReplicaGroups(const OpContext& ctx, std::string_view name, bool allGroupsSameSize,
                        bool useGlobalDeviceIds, std::optional<int64_t> expectedGroupSize) {
  const auto* groups = ctx.op.attr(name).as<ir::DenseElementsAttr>();
  if (!groups || !isTensor(groups->type))
    return true;
  std::span<const int64_t> shape = groups->type.shape();
  if (shape.size() != 2)
    return ctx.error("replica groups should be a rank 2 tensor");
  if (useGlobalDeviceIds && shape[0] * shape[1] == 0)
    return ctx.error("if `use_global_device_ids` is set, the replica groups cannot be empty");
  std::unordered_set<int64_t> seen;
  int64_t count = groups->numElements();
  for (int64_t i = 0; i < count; ++i) {
    int64_t id = groups->intAt(i);
    if (id == -1) {
      if (!allGroupsSameSize)
        continue;
      return ctx.error("Invalid replica id -1");
    }
    if (!seen.insert(id).second)
      return ctx.error("replica id #" + std::to_string(id) + " seen more than once");
  }
  for (size_t id = 0; id < seen.size(); ++id)
    if (!seen.contains(static_cast<int64_t>(id)))
      return ctx.error("replica id #" + std::to_string(id) + " not seen in replica groups");
  if (allGroupsSameSize && expectedGroupSize &&
      (shape[0] == 0 || count / shape[0] != *expectedGroupSize))
    return ctx.error("group size of replica_groups must be " +
                     std::to_string(*expectedGroupSize));
  return true;
}

} // namespace shardscope::verify::detail
