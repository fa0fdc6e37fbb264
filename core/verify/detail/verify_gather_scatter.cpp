// `gather`, `dynamic_gather` and `scatter` (TypeInference.cpp: `verifyGather`, `inferGatherOp`,
// `inferGatherReturnTypeComponents`, `validateScatterDimensionNumbers`, `verifyScatterOp`,
// `inferScatterOp`, `inferDynamicGatherOp`; ODS `AllElementTypesMatch<["operand", "result"]>` of
// `gather`).

#include "core/verify/detail/op_context.h"

#include "core/ir/stablehlo_attrs.h"

#include <algorithm>
#include <unordered_set>

namespace shardscope::verify::detail {

namespace {

using Dims = std::vector<int64_t>;

bool contains(std::span<const int64_t> dims, int64_t dim) {
  return std::find(dims.begin(), dims.end(), dim) != dims.end();
}

bool unique(std::span<const int64_t> dims) {
  std::unordered_set<int64_t> seen;
  for (int64_t d : dims)
    if (!seen.insert(d).second)
      return false;
  return true;
}

// `checkDimsInBounds`.
bool checkInBounds(const OpContext& ctx, std::span<const int64_t> dims, int64_t bound,
                   std::string_view name, std::string_view boundName) {
  for (int64_t dim : dims)
    if (dim < 0 || dim >= bound)
      return ctx.error("Expects each element of " + std::string(name) + " to be in range [0, " +
                       std::string(boundName) + ") i.e. [0, " + std::to_string(bound) +
                       "). got: " + std::to_string(dim) + ".");
  return true;
}

bool checkSorted(const OpContext& ctx, std::span<const int64_t> dims, std::string_view name) {
  if (std::is_sorted(dims.begin(), dims.end()))
    return true;
  return ctx.error("expects " + std::string(name) + " to be sorted, got: [" + joinInts(dims) +
                   "]");
}

// `verifyGather`: the dimension numbers against the operand and start indices ranks.
bool checkDimensionNumbers(const OpContext& ctx, const ir::stablehlo::GatherScatterDimensionNumbers& dn,
                           ir::Type operand, ir::Type indices, size_t numSliceSizes) {
  int64_t operandRank = operand.rank(), indicesRank = indices.rank();
  size_t implied = dn.offsetDims.size() + dn.collapsedSliceDims.size() +
                   dn.operandBatchingDims.size();
  if (static_cast<int64_t>(implied) != operandRank)
    return ctx.error("offset_dims size (" + std::to_string(dn.offsetDims.size()) +
                     ") plus collapse_slice_dims size (" +
                     std::to_string(dn.collapsedSliceDims.size()) +
                     ") plus operand_batching_dims size (" +
                     std::to_string(dn.operandBatchingDims.size()) +
                     ") is not equal to operand rank (" + std::to_string(operandRank) + ")");
  int64_t ivd = dn.indexVectorDim;
  if (ivd < 0 || ivd > indicesRank)
    return ctx.error("Expects index_vector_dim to be in range [0, rank-of('start_indices')] "
                     "i.e. [0, " +
                     std::to_string(indicesRank) + "]. got: " + std::to_string(ivd) + ".");
  if (ivd == indicesRank || isStaticDim(indices.shape()[ivd])) {
    int64_t size = ivd == indicesRank ? 1 : indices.shape()[ivd];
    if (size != static_cast<int64_t>(dn.startIndexMap.size()))
      return ctx.error("start_index_map size (" + std::to_string(dn.startIndexMap.size()) +
                       ") is not equal to size of index dimension (" + std::to_string(ivd) +
                       ") of start_indices (" + std::to_string(size) + ")");
  }
  if (!std::is_sorted(dn.offsetDims.begin(), dn.offsetDims.end()))
    return ctx.error("expects offset_dims to be sorted, got: [" + joinInts(dn.offsetDims) + "]");
  if (!unique(dn.offsetDims))
    return ctx.error("expects offset_dims to not repeat, got: [" + joinInts(dn.offsetDims) +
                     "]");
  if (!checkDimsDistinct(ctx, dn.collapsedSliceDims, dn.operandBatchingDims, "collapsed_slice_dims",
                     "operand_batching_dims") ||
      !checkSorted(ctx, dn.collapsedSliceDims, "collapsed_slice_dims") ||
      !checkInBounds(ctx, dn.collapsedSliceDims, operandRank, "collapsed_slice_dims",
                     "rank-of('operand')") ||
      !checkSorted(ctx, dn.operandBatchingDims, "operand_batching_dims") ||
      !checkInBounds(ctx, dn.operandBatchingDims, operandRank, "operand_batching_dims",
                     "rank-of('operand')"))
    return false;
  if (!unique(dn.indicesBatchingDims))
    return ctx.error("expects start_indices_batching_dims to not repeat, got: [" +
                     joinInts(dn.indicesBatchingDims) + "]");
  if (!checkInBounds(ctx, dn.indicesBatchingDims, indicesRank, "start_indices_batching_dims",
                     "rank-of('start_indices')"))
    return false;
  if (contains(dn.indicesBatchingDims, ivd))
    return ctx.error("expects start_indices_batching_dims not to include index_vector_dim " +
                     std::to_string(ivd));
  if (dn.operandBatchingDims.size() != dn.indicesBatchingDims.size())
    return ctx.error("operand_batching_dims and start_indices_batching_dims should have the "
                     "same size");
  for (size_t i = 0; i < dn.operandBatchingDims.size(); ++i) {
    int64_t a = operand.shape()[dn.operandBatchingDims[i]];
    int64_t b = indices.shape()[dn.indicesBatchingDims[i]];
    if (!compatibleDims(a, b))
      return ctx.error("operand_batching_dims[" + std::to_string(i) +
                       "] and start_indices_batching_dims[" + std::to_string(i) +
                       "] must have compatible sizes, but got " + std::to_string(a) + " and " +
                       std::to_string(b));
  }
  if (!checkDimsDistinct(ctx, dn.startIndexMap, dn.operandBatchingDims, "start_index_map",
                     "operand_batching_dims") ||
      !checkInBounds(ctx, dn.startIndexMap, operandRank, "start_index_map",
                     "rank-of('operand')"))
    return false;
  if (static_cast<int64_t>(numSliceSizes) != operandRank)
    return ctx.error("slice_sizes size (" + std::to_string(numSliceSizes) +
                     ") not equal to operand rank (" + std::to_string(operandRank) + ")");
  return true;
}

// `inferGatherShape`: offset dims take the slice sizes left after collapsed and batching dims;
// the other result dims take start_indices' dims around index_vector_dim.
Dims gatherShape(const ir::stablehlo::GatherScatterDimensionNumbers& dn, ir::Type indices,
                 std::span<const int64_t> sliceSizes, int64_t resultRank) {
  Dims dropped = dn.collapsedSliceDims;
  dropped.insert(dropped.end(), dn.operandBatchingDims.begin(), dn.operandBatchingDims.end());
  Dims kept;
  for (size_t d = 0; d < sliceSizes.size(); ++d)
    if (!contains(dropped, static_cast<int64_t>(d)))
      kept.push_back(sliceSizes[d]);
  Dims shape;
  int64_t batch = 0;
  for (int64_t i = 0; i < resultRank; ++i) {
    auto it = std::find(dn.offsetDims.begin(), dn.offsetDims.end(), i);
    if (it != dn.offsetDims.end()) {
      size_t index = static_cast<size_t>(it - dn.offsetDims.begin());
      shape.push_back(index < kept.size() ? kept[index] : ir::kDynamicSize);
      continue;
    }
    int64_t index = batch++;
    if (index >= dn.indexVectorDim)
      ++index;
    shape.push_back(index < indices.rank() ? indices.shape()[index] : ir::kDynamicSize);
  }
  return shape;
}

bool gatherEntry(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 2 || ctx.op.numResults() != 1)
    return true;
  if (!sameElementType(ctx.operandType(0), ctx.resultType(0)))
    return ctx.opError("failed to verify that all of {operand, result} have same element type");
  return true;
}

// `verifyGather` and the inference after it, shared by `gather` (slice sizes in an attribute)
// and `dynamic_gather` (in an operand: known only when it is a constant). `numSliceSizes` is the
// number of slice sizes either way.
bool inferGatherLike(const OpContext& ctx, const ir::stablehlo::GatherScatterDimensionNumbers& dn,
                     const std::optional<Dims>& sliceSizes, size_t numSliceSizes) {
  ir::Type operand = ctx.operandType(0), indices = ctx.operandType(1);
  if (!checkDimensionNumbers(ctx, dn, operand, indices, numSliceSizes))
    return false;
  Dims sizes = sliceSizes.value_or(Dims(numSliceSizes, ir::kDynamicSize));
  if (sliceSizes) {
    for (auto [dims, name] : {std::pair{&dn.collapsedSliceDims, "collapsed_slice_dims"},
                              std::pair{&dn.operandBatchingDims, "operand_batching_dims"}})
      for (int64_t dim : *dims)
        if (sizes[dim] > 1)
          return ctx.error("Expects that for each dim in " + std::string(name) +
                           ", slice_sizes[dim] should be <= 1, but got " +
                           std::to_string(sizes[dim]));
    for (size_t i = 0; i < sizes.size(); ++i) {
      int64_t size = sizes[i], dim = operand.shape()[i];
      if (size < 0 || (isStaticDim(dim) && size > dim))
        return ctx.error("slice size (" + std::to_string(size) +
                         ") is out of bounds for operand dimension (" +
                         (isStaticDim(dim) ? std::to_string(dim) : "?") + ") at index " +
                         std::to_string(i));
    }
  }
  int64_t indicesRank = indices.rank() + (dn.indexVectorDim == indices.rank() ? 1 : 0);
  int64_t resultRank = static_cast<int64_t>(dn.offsetDims.size()) + indicesRank - 1;
  if (!checkInBounds(ctx, dn.offsetDims, resultRank, "offset_dims", "implied-result-rank"))
    return false;
  return checkInferredTensor(ctx, gatherShape(dn, indices, sizes, resultRank),
                             operand.elementType());
}

bool gatherInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 2)
    return true;
  std::optional<ir::stablehlo::GatherScatterDimensionNumbers> dn =
      ir::stablehlo::gatherDimensionNumbers(ctx.op);
  std::optional<Dims> sliceSizes = ctx.intList("slice_sizes");
  if (!dn || !sliceSizes)
    return true;
  return inferGatherLike(ctx, *dn, sliceSizes, sliceSizes->size());
}

bool dynamicGatherInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 3)
    return true;
  std::optional<ir::stablehlo::GatherScatterDimensionNumbers> dn =
      ir::stablehlo::gatherDimensionNumbers(ctx.op);
  if (!dn)
    return true;
  ir::Type sizesType = ctx.operandType(2);
  if (sizesType.rank() != 1)
    return ctx.error("slice_sizes.rank != 1 (got " + std::to_string(sizesType.rank()) + ")");
  if (!isStaticDim(sizesType.shape()[0]))
    return true; // ODS requires a static shape operand; not modelled
  std::optional<Dims> sliceSizes = constantInts(ctx.op.operand(2));
  return inferGatherLike(ctx, *dn, sliceSizes, static_cast<size_t>(sizesType.shape()[0]));
}

bool checkSortedScatter(const OpContext& ctx, std::span<const int64_t> dims,
                        std::string_view name) {
  if (std::is_sorted(dims.begin(), dims.end()))
    return true;
  return ctx.error("Expects " + std::string(name) + " to be sorted; got: [" + joinInts(dims) +
                   "].");
}

// `validateScatterDimensionNumbers` for one input and its updates.
bool checkScatterDimensionNumbers(const OpContext& ctx,
                                  const ir::stablehlo::GatherScatterDimensionNumbers& dn,
                                  ir::Type operand, std::span<const int64_t> indicesShape,
                                  ir::Type updates) {
  const Dims& window = dn.offsetDims;
  const Dims& inserted = dn.collapsedSliceDims;
  const Dims& batching = dn.operandBatchingDims;
  int64_t operandRank = operand.rank();
  size_t windowSize = window.size() + inserted.size() + batching.size();
  if (operandRank != static_cast<int64_t>(windowSize))
    return ctx.error("Expects rank-of operand to match size-of('update_window_dims') + "
                     "size-of('inserted_window_dims') + size-of('input_batching_dims') i.e. " +
                     std::to_string(windowSize) + " but got " + std::to_string(operandRank) +
                     ".");
  if (!checkSortedScatter(ctx, window, "update_window_dims"))
    return false;
  if (!unique(window))
    return ctx.error("Expects update_window_dims to not repeat; got: [" + joinInts(window) +
                     "].");
  if (!checkInBounds(ctx, window, updates.rank(), "update_window_dims", "rank-of('updates')") ||
      !checkDimsDistinct(ctx, inserted, batching, "inserted_window_dims", "input_batching_dims") ||
      !checkSortedScatter(ctx, inserted, "inserted_window_dims") ||
      !checkInBounds(ctx, inserted, operandRank, "inserted_window_dims", "rank-of('operand')") ||
      !checkSortedScatter(ctx, batching, "input_batching_dims") ||
      !checkInBounds(ctx, batching, operandRank, "input_batching_dims", "rank-of('operand')"))
    return false;
  if (!unique(dn.indicesBatchingDims))
    return ctx.error("Expects scatter_indices_batching_dims to not repeat; got: [" +
                     joinInts(dn.indicesBatchingDims) + "].");
  int64_t indicesRank = static_cast<int64_t>(indicesShape.size());
  if (!checkInBounds(ctx, dn.indicesBatchingDims, indicesRank, "scatter_indices_batching_dims",
                     "rank-of('scatter_indices')"))
    return false;
  int64_t ivd = dn.indexVectorDim;
  if (contains(dn.indicesBatchingDims, ivd))
    return ctx.error("expects scatter_indices_batching_dims not to include index_vector_dim " +
                     std::to_string(ivd) + ".");
  if (batching.size() != dn.indicesBatchingDims.size())
    return ctx.error("input_batching_dims and scatter_indices_batching_dims should have the "
                     "same size.");
  for (size_t i = 0; i < batching.size(); ++i) {
    int64_t a = operand.shape()[batching[i]], b = indicesShape[dn.indicesBatchingDims[i]];
    if (!compatibleDims(a, b))
      return ctx.error("input_batching_dims[" + std::to_string(i) +
                       "] and scatter_indices_batching_dims[" + std::to_string(i) +
                       "] must have compatible sizes, but got " + std::to_string(a) + " and " +
                       std::to_string(b) + ".");
  }
  const Dims& toOperand = dn.startIndexMap;
  std::string count = std::to_string(toOperand.size());
  std::string where = " elements in scatter_dims_to_operand_dims and the bound of dimension "
                      "index_vector_dim=" +
                      std::to_string(ivd) + " of scatter_indices is ";
  if (ivd == indicesRank && toOperand.size() != 1)
    return ctx.error("Scatter op has " + count + where + "1. These two numbers must be equal.");
  if (ivd < indicesRank && isStaticDim(indicesShape[ivd]) &&
      static_cast<int64_t>(toOperand.size()) != indicesShape[ivd])
    return ctx.error("Scatter op has " + count + where + std::to_string(indicesShape[ivd]) +
                     ". These two numbers must be equal.");
  return checkDimsDistinct(ctx, toOperand, batching, "scatter_dims_to_operand_dims",
                       "input_batching_dims") &&
         checkInBounds(ctx, toOperand, operandRank, "scatter_dims_to_operand_dims",
                       "rank-of('operand')");
}

// The update sizes against the operand's window and the scatter indices.
bool checkScatterBounds(const OpContext& ctx,
                        const ir::stablehlo::GatherScatterDimensionNumbers& dn, ir::Type operand,
                        std::span<const int64_t> indicesShape, ir::Type updates) {
  Dims maxSizes;
  size_t insertedSeen = 0, batchingSeen = 0;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    if (insertedSeen < dn.collapsedSliceDims.size() && dn.collapsedSliceDims[insertedSeen] == d)
      ++insertedSeen;
    else if (batchingSeen < dn.operandBatchingDims.size() &&
             dn.operandBatchingDims[batchingSeen] == d)
      ++batchingSeen;
    else
      maxSizes.push_back(operand.shape()[d]);
  }
  std::span<const int64_t> shape = updates.shape();
  for (size_t i = 0; i < dn.offsetDims.size() && i < maxSizes.size(); ++i) {
    int64_t dim = dn.offsetDims[i];
    if (!isStaticDim(shape[dim]) || !isStaticDim(maxSizes[i]))
      continue;
    if (shape[dim] > maxSizes[i])
      return ctx.error("expects bounds of the window dimensions of updates to not exceed the "
                       "bounds of the corresponding dimensions of operand. For dimension " +
                       std::to_string(dim) + ", updates bound is " + std::to_string(shape[dim]) +
                       ", operand bound is " + std::to_string(maxSizes[i]) + ".");
  }
  int64_t seen = 0;
  for (int64_t i = 0; i < static_cast<int64_t>(shape.size()); ++i) {
    if (std::binary_search(dn.offsetDims.begin(), dn.offsetDims.end(), i))
      continue;
    if (seen == dn.indexVectorDim)
      ++seen;
    int64_t bound = seen < static_cast<int64_t>(indicesShape.size()) ? indicesShape[seen]
                                                                     : ir::kDynamicSize;
    if (!compatibleDims(shape[i], bound))
      return ctx.error("expects bounds of the scatter dimensions of updates to be same as the "
                       "bounds of the corresponding dimensions of scatter indices. For scatter "
                       "dimension " +
                       std::to_string(i) + ", updates bound is " + std::to_string(shape[i]) +
                       " , scatter_indices bound is " + std::to_string(bound) + ".");
    ++seen;
  }
  return true;
}

struct ScatterOperands {
  std::vector<ir::Type> inputs, updates;
  ir::Type indices;
};

std::optional<ScatterOperands> scatterOperands(const OpContext& ctx) {
  unsigned n = ctx.op.numOperands();
  if (!allTensors(ctx.op) || n < 3 || n % 2 == 0 || ctx.op.numRegions() != 1 ||
      ctx.op.region(0).empty())
    return std::nullopt;
  ScatterOperands out;
  unsigned inputs = (n - 1) / 2;
  for (unsigned i = 0; i < inputs; ++i) {
    out.inputs.push_back(ctx.operandType(i));
    out.updates.push_back(ctx.operandType(inputs + 1 + i));
  }
  out.indices = ctx.operandType(inputs);
  return out;
}

bool scatterEntry(const OpContext& ctx) {
  std::optional<ScatterOperands> ops = scatterOperands(ctx);
  std::optional<ir::stablehlo::GatherScatterDimensionNumbers> dn =
      ir::stablehlo::scatterDimensionNumbers(ctx.op);
  if (!ops || !dn)
    return true;
  for (const ir::Type& t : ops->inputs)
    if (!compatibleShapes(ops->inputs[0].shape(), t.shape()))
      return ctx.error("Not all inputs have compatible shapes.");
  for (const ir::Type& t : ops->updates)
    if (!compatibleShapes(ops->updates[0].shape(), t.shape()))
      return ctx.error("Not all updates have compatible shapes.");
  int64_t indicesRank = ops->indices.rank(), ivd = dn->indexVectorDim;
  if (ivd < 0 || ivd > indicesRank)
    return ctx.error("Expects index_vector_dim to be in range [0, rank-of('scatter_indices')] "
                     "i.e. [0, " +
                     std::to_string(indicesRank) + "]. got: " + std::to_string(ivd) + ".");
  std::vector<ir::Type> inits;
  for (const ir::Type& u : ops->updates)
    inits.push_back(ir::Type::tensor({}, u.elementType()));
  if (!checkReducerShape(ctx, ctx.op.region(0).front(), ops->inputs, inits, {}))
    return false;
  Dims indicesShape(ops->indices.shape().begin(), ops->indices.shape().end());
  if (ivd == indicesRank)
    indicesShape.push_back(1);
  int64_t expectedRank = static_cast<int64_t>(indicesShape.size()) - 1 +
                         static_cast<int64_t>(dn->offsetDims.size());
  for (const ir::Type& u : ops->updates)
    if (u.rank() != expectedRank)
      return ctx.error("expects updates tensor must be of rank " + std::to_string(expectedRank) +
                       " ( == rank-of('scatter_indices') - 1 + size-of('update_window_dims'), "
                       "where 'scatter_indices' is expanded by a trailing 1 dimension if "
                       "'index_vector_dim' == rank-of('scatter_indices')), but got " +
                       std::to_string(u.rank()) + ".");
  for (size_t i = 0; i < ops->inputs.size(); ++i)
    if (!checkScatterDimensionNumbers(ctx, *dn, ops->inputs[i], indicesShape, ops->updates[i]))
      return false;
  for (size_t i = 0; i < ops->inputs.size(); ++i)
    if (!checkScatterBounds(ctx, *dn, ops->inputs[i], indicesShape, ops->updates[i]))
      return false;
  return true;
}

bool scatterInfer(const OpContext& ctx) {
  std::optional<ScatterOperands> ops = scatterOperands(ctx);
  if (!ops)
    return true;
  std::vector<ir::Type> acc = accumulatorTypes(ctx.op);
  std::vector<ir::Type> inferred;
  for (size_t i = 0; i < ops->inputs.size(); ++i) {
    ir::Type element = i < acc.size() && isTensor(acc[i]) ? acc[i] : ops->inputs[i];
    inferred.push_back(ir::Type::tensor(ops->inputs[i].shape(), element.elementType()));
  }
  return checkInferredTypes(ctx, inferred);
}

} // namespace

void addGatherRules(RuleTable& table) {
  table.emplace("stablehlo.gather", OpRules{&gatherEntry, &gatherInfer});
  table.emplace("stablehlo.dynamic_gather", OpRules{nullptr, &dynamicGatherInfer});
  table.emplace("stablehlo.scatter", OpRules{&scatterEntry, &scatterInfer});
}

} // namespace shardscope::verify::detail
