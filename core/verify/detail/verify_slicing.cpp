// Ops that cut a window out of a tensor or grow it: `slice`, `dynamic_slice`,
// `dynamic_update_slice` and `pad` (TypeInference.cpp: `inferSliceOp`, `inferDynamicSliceOp`,
// `inferDynamicUpdateSliceOp`, `inferPadOp`, `verifyRealDynamicSliceOp`, `verifyDynamicPadOp`,
// `inferSetDimensionSizeOp`; the ODS traits of `StablehloOps.td`).

#include "core/verify/detail/op_context.h"

#include <algorithm>

namespace shardscope::verify::detail {

namespace {

// ODS's `AllMatchSameOperatorTrait<[a, b, c], "$_self.size()", "size">`.
bool checkSameSizes(const OpContext& ctx, const std::vector<std::vector<int64_t>>& lists,
                    std::string_view names) {
  for (const auto& list : lists)
    if (list.size() != lists.front().size())
      return ctx.opError("failed to verify that all of {" + std::string(names) +
                         "} have same size");
  return true;
}

// ODS's `AllElementTypesMatch<[...]>` over the given types.
bool checkElementTypesMatch(const OpContext& ctx, const std::vector<ir::Type>& types,
                            std::string_view names) {
  for (const ir::Type& t : types)
    if (!sameElementType(t, types.front()))
      return ctx.opError("failed to verify that all of {" + std::string(names) +
                         "} have same element type");
  return true;
}

bool startIndicesShareElementType(const OpContext& ctx, unsigned first) {
  for (unsigned i = first; i < ctx.op.numOperands(); ++i)
    if (!sameElementType(ctx.operandType(i), ctx.operandType(first)))
      return false;
  return true;
}

bool sliceEntry(const OpContext& ctx) {
  std::optional<std::vector<int64_t>> start = ctx.intList("start_indices");
  std::optional<std::vector<int64_t>> limit = ctx.intList("limit_indices");
  std::optional<std::vector<int64_t>> strides = ctx.intList("strides");
  if (!start || !limit || !strides)
    return ctx.missingAttr(!start ? "start_indices" : !limit ? "limit_indices" : "strides");
  return checkSameSizes(ctx, {*start, *limit, *strides}, "start_indices, limit_indices, strides") &&
         (!allTensors(ctx.op) || checkSameElementTypes(ctx));
}

bool sliceInfer(const OpContext& ctx) {
  std::optional<std::vector<int64_t>> start = ctx.intList("start_indices");
  std::optional<std::vector<int64_t>> limit = ctx.intList("limit_indices");
  std::optional<std::vector<int64_t>> strides = ctx.intList("strides");
  if (!allTensors(ctx.op) || !start || !limit || !strides)
    return true;
  ir::Type operand = ctx.operandType(0);
  int64_t rank = operand.rank();
  if (static_cast<int64_t>(start->size()) != rank)
    return ctx.error("the number of elements in start_indices (" +
                     std::to_string(start->size()) +
                     ") does not match the rank of the operand (" + std::to_string(rank) + ")");
  std::vector<int64_t> shape(static_cast<size_t>(rank), ir::kDynamicSize);
  for (int64_t i = 0; i < rank; ++i) {
    std::string where = " in dimension " + std::to_string(i);
    int64_t lo = (*start)[i], hi = (*limit)[i], stride = (*strides)[i];
    if (lo < 0)
      return ctx.error("negative start index " + std::to_string(lo) + where);
    int64_t size = operand.shape()[i];
    if (isStaticDim(size) && hi > size)
      return ctx.error("limit index " + std::to_string(hi) + " is larger than dimension size " +
                       std::to_string(size) + where);
    if (lo > hi)
      return ctx.error("start index " + std::to_string(lo) + " is larger than limit index " +
                       std::to_string(hi) + where);
    if (stride <= 0)
      return ctx.error("stride must be positive but got " + std::to_string(stride) + where);
    shape[i] = (hi - lo) / stride + ((hi - lo) % stride != 0 ? 1 : 0);
  }
  return checkInferredTensor(ctx, shape, operand.elementType());
}

bool dynamicSliceEntry(const OpContext& ctx) {
  if (!ctx.intList("slice_sizes"))
    return ctx.missingAttr("slice_sizes");
  if (!allTensors(ctx.op) || ctx.op.numOperands() == 0 || ctx.op.numResults() != 1)
    return true;
  return checkElementTypesMatch(ctx, {ctx.operandType(0), ctx.resultType(0)}, "operand, result");
}

bool dynamicSliceInfer(const OpContext& ctx) {
  std::optional<std::vector<int64_t>> sizes = ctx.intList("slice_sizes");
  if (!allTensors(ctx.op) || ctx.op.numOperands() == 0 || !sizes)
    return true;
  ir::Type operand = ctx.operandType(0);
  size_t numStarts = ctx.op.numOperands() - 1;
  if (numStarts != sizes->size())
    return ctx.error("has mismatched number of slice sizes (" + std::to_string(sizes->size()) +
                     ") and number of start indices (" + std::to_string(numStarts) + ")");
  if (operand.rank() != static_cast<int64_t>(numStarts))
    return ctx.error("has mismatched number of start indices (" + std::to_string(numStarts) +
                     ") and the rank of operand (" + std::to_string(operand.rank()) + ")");
  if (!startIndicesShareElementType(ctx, 1))
    return ctx.error("start indices must have same element type");
  for (size_t i = 0; i < sizes->size(); ++i) {
    int64_t size = (*sizes)[i];
    if (size < 0)
      return ctx.error("has negative size index to dynamic slice: " + std::to_string(size));
    int64_t dim = operand.shape()[i];
    if (isStaticDim(dim) && size > dim)
      return ctx.error("has slice size " + std::to_string(size) +
                       " greater than dimension size " + std::to_string(dim) + " in dimension " +
                       std::to_string(i) + " of operand");
  }
  return checkInferredTensor(ctx, *sizes, operand.elementType());
}

bool dynamicUpdateSliceEntry(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() < 2 || ctx.op.numResults() != 1)
    return true;
  return checkElementTypesMatch(ctx, {ctx.operandType(0), ctx.operandType(1), ctx.resultType(0)},
                                "operand, update, result");
}

bool dynamicUpdateSliceInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() < 2)
    return true;
  ir::Type operand = ctx.operandType(0), update = ctx.operandType(1);
  if (update.rank() != operand.rank())
    return ctx.error("update rank does not match operand rank: " +
                     std::to_string(update.rank()) + " vs " + std::to_string(operand.rank()) +
                     ".");
  size_t numStarts = ctx.op.numOperands() - 2;
  if (static_cast<int64_t>(numStarts) != operand.rank())
    return ctx.error("expects number of start_indices to match operand rank: " +
                     std::to_string(numStarts) + " vs " + std::to_string(operand.rank()) + ".");
  if (!startIndicesShareElementType(ctx, 2))
    return ctx.error("start indices must have same element type");
  for (int64_t i = 0; i < operand.rank(); ++i) {
    int64_t operandDim = operand.shape()[i], updateDim = update.shape()[i];
    if (!isStaticDim(updateDim))
      continue;
    if (isStaticDim(operandDim) && (updateDim < 0 || updateDim > operandDim))
      return ctx.error("expects size at dimension " + std::to_string(i) +
                       " of update to be in range [0, " + std::to_string(operandDim) +
                       "]. Got: " + std::to_string(updateDim) + ".");
  }
  return checkInferredTypes(ctx, {operand});
}

bool padEntry(const OpContext& ctx) {
  std::optional<std::vector<int64_t>> low = ctx.intList("edge_padding_low");
  std::optional<std::vector<int64_t>> high = ctx.intList("edge_padding_high");
  std::optional<std::vector<int64_t>> interior = ctx.intList("interior_padding");
  if (!low || !high || !interior)
    return ctx.missingAttr(!low ? "edge_padding_low" : !high ? "edge_padding_high"
                                                              : "interior_padding");
  return checkSameSizes(ctx, {*low, *high, *interior},
                        "edge_padding_low, edge_padding_high, interior_padding") &&
         (!allTensors(ctx.op) || checkSameElementTypes(ctx));
}

bool padInfer(const OpContext& ctx) {
  std::optional<std::vector<int64_t>> low = ctx.intList("edge_padding_low");
  std::optional<std::vector<int64_t>> high = ctx.intList("edge_padding_high");
  std::optional<std::vector<int64_t>> interior = ctx.intList("interior_padding");
  if (!allTensors(ctx.op) || !low || !high || !interior || low->size() != high->size() ||
      low->size() != interior->size())
    return true;
  ir::Type operand = ctx.operandType(0);
  int64_t rank = operand.rank();
  if (static_cast<int64_t>(low->size()) != rank)
    return ctx.error("edge_padding_low length (" + std::to_string(low->size()) +
                     ") must match operand rank (" + std::to_string(rank) + ")");
  std::vector<int64_t> shape(static_cast<size_t>(rank), ir::kDynamicSize);
  for (int64_t i = 0; i < rank; ++i) {
    if ((*interior)[i] < 0)
      return ctx.error("Interior padding cannot be negative: " + std::to_string((*interior)[i]));
    int64_t size = operand.shape()[i];
    if (!isStaticDim(size))
      continue;
    // In 128 bits: huge paddings must not wrap around into a plausible size.
    __int128 padded = static_cast<__int128>(size) + (*low)[i] + (*high)[i] +
                      static_cast<__int128>(std::max<int64_t>(size - 1, 0)) * (*interior)[i];
    if (padded < 0)
      return ctx.error("Padding result in negative size for dimension " + std::to_string(i));
    if (padded > INT64_MAX)
      return ctx.error("Padding result in a size that overflows for dimension " +
                       std::to_string(i));
    shape[i] = static_cast<int64_t>(padded);
  }
  return checkInferredTensor(ctx, shape, operand.elementType());
}

bool verifyRealDynamicSlice(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 4)
    return true;
  int64_t rank = ctx.operandType(0).rank();
  const char* names[] = {"start_indices", "limit_indices", "strides"};
  for (unsigned i = 1; i < 4; ++i) {
    int64_t count = ctx.operandType(i).numElements();
    if (count >= 0 && count != rank)
      return ctx.error("has mismatched number of operand rank (" + std::to_string(rank) +
                       ") and " + names[i - 1] + " size (" + std::to_string(count) + ")");
  }
  return true;
}

bool verifyDynamicPad(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 5 || ctx.op.numResults() != 1)
    return true;
  ir::Type operand = ctx.operandType(0), result = ctx.resultType(0), low = ctx.operandType(2);
  int64_t rank = operand.rank();
  if (low.rank() == 1 && isStaticDim(low.shape()[0]) && low.shape()[0] != rank)
    return ctx.error("padding operands size (" + std::to_string(low.shape()[0]) +
                     ") must match operand rank (" + std::to_string(rank) + ")");
  std::optional<std::vector<int64_t>> interior = constantInts(ctx.op.operand(4));
  if (interior)
    for (int64_t v : *interior)
      if (v < 0)
        return ctx.error("interior_padding must be non-negative, but got " + joinInts(*interior));
  std::optional<std::vector<int64_t>> lo = constantInts(ctx.op.operand(2));
  std::optional<std::vector<int64_t>> hi = constantInts(ctx.op.operand(3));
  if (!operand.hasStaticShape() || !result.hasStaticShape() || !interior || !lo || !hi ||
      result.rank() != rank)
    return true;
  for (int64_t i = 0; i < rank && i < static_cast<int64_t>(std::min({lo->size(), hi->size(),
                                                                      interior->size()}));
       ++i) {
    int64_t in = operand.shape()[i];
    int64_t want = in + (*lo)[i] + std::max<int64_t>(in - 1, 0) * (*interior)[i] + (*hi)[i];
    if (result.shape()[i] != want)
      return ctx.error("expected output dimension at index " + std::to_string(i) + " to equal " +
                       std::to_string(want) + ", but got " + std::to_string(result.shape()[i]));
  }
  return true;
}

// ODS: `ConfinedAttr<I64Attr, [IntNonNegative]>:$dimension`.
bool setDimensionSizeEntry(const OpContext& ctx) {
  std::optional<int64_t> dim = ctx.intAttr("dimension");
  if (!dim)
    return ctx.missingAttr("dimension");
  if (*dim < 0)
    return ctx.opError("attribute 'dimension' failed to satisfy constraint: 64-bit signless "
                       "integer attribute whose value is non-negative");
  return true;
}

bool setDimensionSizeInfer(const OpContext& ctx) {
  std::optional<int64_t> dim = ctx.intAttr("dimension");
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 2 || !dim)
    return true;
  if (ctx.operandType(1).rank() != 0)
    return ctx.error("size operand should be of rank-0");
  ir::Type operand = ctx.operandType(0);
  if (*dim < 0)
    return ctx.error("requires non-negative dimension attribute; found (" + std::to_string(*dim) +
                     ")");
  if (*dim >= operand.rank())
    return ctx.error("requires dimension attribute in range [0, " +
                     std::to_string(operand.rank()) + "); found (" + std::to_string(*dim) + ")");
  // The size is a runtime value: the dimension it sets is dynamic, or the constant it holds.
  std::vector<int64_t> shape(operand.shape().begin(), operand.shape().end());
  std::optional<std::vector<int64_t>> size = constantInts(ctx.op.operand(1));
  shape[*dim] = size && size->size() == 1 && size->front() == shape[*dim] ? shape[*dim]
                                                                          : ir::kDynamicSize;
  return checkInferredTensor(ctx, shape, operand.elementType());
}

} // namespace

void addSlicingRules(RuleTable& table) {
  table.emplace("stablehlo.slice", OpRules{&sliceEntry, &sliceInfer});
  table.emplace("stablehlo.dynamic_slice", OpRules{&dynamicSliceEntry, &dynamicSliceInfer});
  table.emplace("stablehlo.dynamic_update_slice",
                OpRules{&dynamicUpdateSliceEntry, &dynamicUpdateSliceInfer});
  table.emplace("stablehlo.pad", OpRules{&padEntry, &padInfer});
  table.emplace("stablehlo.real_dynamic_slice", OpRules{&verifyRealDynamicSlice, nullptr});
  table.emplace("stablehlo.dynamic_pad", OpRules{&verifyDynamicPad, nullptr});
  table.emplace("stablehlo.set_dimension_size", OpRules{&setDimensionSizeEntry, &setDimensionSizeInfer});
}

} // namespace shardscope::verify::detail
