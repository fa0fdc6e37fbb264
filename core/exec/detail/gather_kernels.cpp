// gather, dynamic_gather and scatter, following the index arithmetic of the StableHLO spec
// (including operand/input batching dims). Every computed index is bounds-checked: gather reports
// an out-of-range index (only an invalid program gets there, since start indices are clamped);
// scatter skips updates whose target lies outside the result, as the spec's reference does.
#include "core/exec/detail/kernel.h"

#include <algorithm>

namespace shardscope::exec::detail {

namespace {

using Dims = ir::stablehlo::GatherScatterDimensionNumbers;

bool contains(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// The dimensions of `rank` that are in neither `a` nor `b`, ascending.
std::vector<int64_t> remainingDims(int64_t rank, const std::vector<int64_t>& a,
                                   const std::vector<int64_t>& b = {}) {
  std::vector<int64_t> out;
  for (int64_t d = 0; d < rank; ++d)
    if (!contains(a, d) && !contains(b, d))
      out.push_back(d);
  return out;
}

bool inBounds(std::span<const int64_t> index, std::span<const int64_t> shape) {
  for (size_t d = 0; d < index.size(); ++d)
    if (index[d] < 0 || index[d] >= shape[d])
      return false;
  return true;
}

std::vector<int64_t> pick(std::span<const int64_t> index, const std::vector<int64_t>& dims) {
  std::vector<int64_t> out;
  for (int64_t d : dims)
    out.push_back(index[d]);
  return out;
}

// Reads start indices for one batch position and maps batch/window positions to operand
// positions; shared by gather (operand = gather operand) and scatter (operand = scatter input).
class IndexMapper {
public:
  IndexMapper(const Dims& dims, const Tensor& indices, int64_t operandRank)
      : m_dims(dims), m_indices(indices), m_indexStrides(indices.strides()),
        m_windowDims(
            remainingDims(operandRank, dims.collapsedSliceDims, dims.operandBatchingDims)) {}

  /// Checks the dimension numbers against the operand and indices ranks.
  std::optional<std::string> validate(int64_t operandRank, int64_t batchRank) const {
    int64_t ivd = m_dims.indexVectorDim;
    if (ivd < 0 || ivd > m_indices.rank())
      return "invalid 'index_vector_dim' " + std::to_string(ivd);
    int64_t vectorSize = ivd < m_indices.rank() ? m_indices.shape()[ivd] : 1;
    if (vectorSize != static_cast<int64_t>(m_dims.startIndexMap.size()))
      return "index vector size " + std::to_string(vectorSize) + " does not match the " +
             std::to_string(m_dims.startIndexMap.size()) + " start index map entries";
    if (m_dims.operandBatchingDims.size() != m_dims.indicesBatchingDims.size())
      return std::string("operand and indices batching dims differ in number");
    int64_t expectedBatchRank = m_indices.rank() - (ivd < m_indices.rank() ? 1 : 0);
    if (batchRank != expectedBatchRank)
      return "expected " + std::to_string(expectedBatchRank) + " batch dims, got " +
             std::to_string(batchRank);
    auto inRange = [](const std::vector<int64_t>& list, int64_t rank) {
      return std::all_of(list.begin(), list.end(), [&](int64_t d) { return d >= 0 && d < rank; });
    };
    if (!inRange(m_dims.startIndexMap, operandRank) ||
        !inRange(m_dims.collapsedSliceDims, operandRank) ||
        !inRange(m_dims.operandBatchingDims, operandRank) ||
        !inRange(m_dims.indicesBatchingDims, m_indices.rank()) ||
        contains(m_dims.indicesBatchingDims, ivd))
      return std::string("dimension numbers out of range");
    return std::nullopt;
  }

  /// Returns true when `shape` is the indices' shape without the index vector dim.
  bool batchShapeIs(const std::vector<int64_t>& shape) const {
    std::vector<int64_t> expected = m_indices.shape();
    if (m_dims.indexVectorDim < m_indices.rank())
      expected.erase(expected.begin() + m_dims.indexVectorDim);
    return expected == shape;
  }

  /// The operand dims a window (offset) index runs over, in order.
  const std::vector<int64_t>& windowDims() const { return m_windowDims; }

  /// The start index vector for `batchIndex` (the result/update index at its batch dims).
  void startIndex(std::span<const int64_t> batchIndex, std::vector<int64_t>& out) const {
    int64_t ivd = m_dims.indexVectorDim;
    std::vector<int64_t> at(batchIndex.begin(), batchIndex.end());
    if (ivd < m_indices.rank())
      at.insert(at.begin() + ivd, 0);
    out.clear();
    for (size_t k = 0; k < m_dims.startIndexMap.size(); ++k) {
      if (ivd < m_indices.rank())
        at[ivd] = static_cast<int64_t>(k);
      out.push_back(m_indices.intAt(linearIndex(at, m_indexStrides)));
    }
  }

  /// Adds the batching-dim contribution of `batchIndex` to `operandIndex`.
  void addBatching(std::span<const int64_t> batchIndex, std::vector<int64_t>& operandIndex) const {
    for (size_t i = 0; i < m_dims.operandBatchingDims.size(); ++i) {
      int64_t start = m_dims.indicesBatchingDims[i];
      int64_t position = start < m_dims.indexVectorDim ? start : start - 1;
      operandIndex[m_dims.operandBatchingDims[i]] += batchIndex[position];
    }
  }

private:
  const Dims& m_dims;
  const Tensor& m_indices;
  std::vector<int64_t> m_indexStrides;
  std::vector<int64_t> m_windowDims;
};

bool runGather(KernelContext& ctx, const Dims& dims, const std::vector<int64_t>& sliceSizes) {
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  const Tensor& operand = ctx.operands[0];
  const Tensor& indices = ctx.operands[1];
  if (operand.elementType() != out->elementType() || !ir::isIntegerElement(indices.elementType()))
    return ctx.fail("expected an integer index tensor and the operand's element type");
  if (static_cast<int64_t>(sliceSizes.size()) != operand.rank())
    return ctx.fail("expected one slice size per operand dimension");
  for (int64_t d = 0; d < operand.rank(); ++d)
    if (sliceSizes[d] < 0 || sliceSizes[d] > operand.shape()[d])
      return ctx.fail("slice size " + std::to_string(sliceSizes[d]) + " does not fit dimension " +
                      std::to_string(d) + " of " + operand.type().str());
  IndexMapper mapper(dims, indices, operand.rank());
  std::vector<int64_t> batchDims = remainingDims(out->rank(), dims.offsetDims);
  if (mapper.windowDims().size() != dims.offsetDims.size())
    return ctx.fail("expected " + std::to_string(mapper.windowDims().size()) + " offset dims");
  if (auto error = mapper.validate(operand.rank(), static_cast<int64_t>(batchDims.size())))
    return ctx.fail(*error);
  if (!mapper.batchShapeIs(pick(out->shape(), batchDims)))
    return ctx.fail("result shape " + out->type().str() + " does not match the indices");
  std::vector<int64_t> operandStrides = operand.strides(), start;
  bool ok = true;
  forEachIndex(out->shape(), [&](std::span<const int64_t> index, int64_t linear) {
    if (!ok)
      return;
    std::vector<int64_t> batch = pick(index, batchDims);
    mapper.startIndex(batch, start);
    std::vector<int64_t> from(static_cast<size_t>(operand.rank()), 0);
    for (size_t k = 0; k < start.size(); ++k) {
      int64_t d = dims.startIndexMap[k];
      from[d] = std::clamp(start[k], int64_t{0}, operand.shape()[d] - sliceSizes[d]);
    }
    mapper.addBatching(batch, from);
    for (size_t j = 0; j < dims.offsetDims.size(); ++j)
      from[mapper.windowDims()[j]] += index[dims.offsetDims[j]];
    if (!inBounds(from, operand.shape())) {
      ok = ctx.fail("result shape " + out->type().str() + " reads outside the operand");
      return;
    }
    copyElement(operand, linearIndex(from, operandStrides), *out, linear);
  });
  if (ok)
    ctx.results.push_back(std::move(*out));
  return ok;
}

bool gather(KernelContext& ctx) {
  std::optional<Dims> dims = ir::stablehlo::gatherDimensionNumbers(ctx.op);
  auto sliceSizes = intListAttr(ctx.op, "slice_sizes");
  if (!ctx.expectOperands(2))
    return false;
  if (!dims || !sliceSizes)
    return ctx.fail("expected 'dimension_numbers' and 'slice_sizes'");
  return runGather(ctx, *dims, *sliceSizes);
}

bool dynamicGather(KernelContext& ctx) {
  std::optional<Dims> dims = ir::stablehlo::gatherDimensionNumbers(ctx.op);
  if (!ctx.expectOperands(3))
    return false;
  if (!dims)
    return ctx.fail("expected 'dimension_numbers'");
  const Tensor& sizes = ctx.operands[2];
  if (sizes.rank() != 1 || !ir::isIntegerElement(sizes.elementType()))
    return ctx.fail("expected a 1-D integer 'slice_sizes' operand");
  std::vector<int64_t> sliceSizes;
  for (int64_t i = 0; i < sizes.numElements(); ++i)
    sliceSizes.push_back(sizes.intAt(i));
  return runGather(ctx, *dims, sliceSizes);
}

// A body that is exactly `return %arg1` (overwrite), or `%arg0 op %arg1` for a fast combiner.
enum class ScatterBody { Region, Replace, Combine };

ScatterBody classifyBody(const ir::Operation& op, size_t n, ir::ElementType e,
                         std::string_view& fast) {
  if (n != 1)
    return ScatterBody::Region;
  const ir::Block& body = op.region(0).front();
  if (body.ops().size() == 1 && body.numArguments() == 2 && body.back()->numOperands() == 1 &&
      body.back()->operand(0) == body.argument(1))
    return ScatterBody::Replace;
  fast = singleOpBody(op);
  return !fast.empty() && isFastCombiner(fast, e) ? ScatterBody::Combine
                                                        : ScatterBody::Region;
}

// Applies the update body to result element `to` and update element `from` of every operand.
bool applyUpdate(KernelContext& ctx, ScatterBody kind, std::string_view fast,
                 std::vector<Tensor>& results, std::span<const Tensor> updates, int64_t to,
                 int64_t from) {
  Tensor& r = results[0];
  if (kind == ScatterBody::Replace) {
    copyElement(updates[0], from, r, to);
  } else if (kind == ScatterBody::Combine) {
    if (ir::isFloatElement(r.elementType()))
      r.setFloat(to, combineFloat(fast, r.floatAt(to), updates[0].floatAt(from)));
    else
      r.setInt(to, combineInt(fast, r.intAt(to), updates[0].intAt(from),
                              isUnsignedLike(r.elementType())));
  } else {
    std::vector<Tensor> args;
    for (const Tensor& t : results)
      args.push_back(scalarOf(t, to));
    for (const Tensor& t : updates)
      args.push_back(scalarOf(t, from));
    auto values = ctx.regions.runRegion(ctx.op.region(0), std::move(args));
    if (!values)
      return false;
    if (values->size() != results.size())
      return ctx.fail("update computation returned the wrong number of values");
    for (size_t k = 0; k < results.size(); ++k) {
      if ((*values)[k].elementType() != results[k].elementType())
        return ctx.fail("update computation returned " + (*values)[k].type().str());
      copyElement((*values)[k], 0, results[k], to);
    }
  }
  return true;
}

bool validScatterOperands(KernelContext& ctx, size_t n) {
  for (size_t k = 0; k < n; ++k) {
    ir::Type result = ctx.op.result(static_cast<unsigned>(k))->type();
    const Tensor& input = ctx.operands[k];
    const Tensor& update = ctx.operands[n + 1 + k];
    if (input.type() != result || input.shape() != ctx.operands[0].shape() ||
        update.shape() != ctx.operands[n + 1].shape() ||
        update.elementType() != input.elementType())
      return ctx.fail("scatter input " + std::to_string(k) +
                      " does not match its update or result");
  }
  if (!ir::isIntegerElement(ctx.operands[n].elementType()))
    return ctx.fail("expected integer scatter indices");
  return true;
}

bool scatter(KernelContext& ctx) {
  size_t n = (ctx.operands.size() - 1) / 2;
  std::optional<Dims> dims = ir::stablehlo::scatterDimensionNumbers(ctx.op);
  if (n == 0 || ctx.operands.size() != 2 * n + 1 || ctx.op.numResults() != n || !dims ||
      ctx.op.numRegions() != 1 || ctx.op.region(0).empty())
    return ctx.fail("expected inputs, indices, updates, 'scatter_dimension_numbers' and a body");
  if (!validScatterOperands(ctx, n))
    return false;
  std::vector<Tensor> results(ctx.operands.begin(), ctx.operands.begin() + n);
  const Tensor& indices = ctx.operands[n];
  std::span<const Tensor> updates = ctx.operands.subspan(n + 1, n);
  IndexMapper mapper(*dims, indices, results[0].rank());
  std::vector<int64_t> scatterDims = remainingDims(updates[0].rank(), dims->offsetDims);
  if (mapper.windowDims().size() != dims->offsetDims.size())
    return ctx.fail("expected " + std::to_string(mapper.windowDims().size()) +
                    " update window dims");
  if (auto error = mapper.validate(results[0].rank(), static_cast<int64_t>(scatterDims.size())))
    return ctx.fail(*error);
  if (!mapper.batchShapeIs(pick(updates[0].shape(), scatterDims)))
    return ctx.fail("updates shape " + updates[0].type().str() + " does not match the indices");
  std::string_view fast;
  ScatterBody kind = classifyBody(ctx.op, n, results[0].elementType(), fast);
  std::vector<int64_t> resultStrides = results[0].strides(), start;
  bool ok = true;
  forEachIndex(updates[0].shape(), [&](std::span<const int64_t> index, int64_t linear) {
    if (!ok)
      return;
    std::vector<int64_t> batch = pick(index, scatterDims);
    mapper.startIndex(batch, start);
    std::vector<int64_t> to(static_cast<size_t>(results[0].rank()), 0);
    for (size_t k = 0; k < start.size(); ++k)
      to[dims->startIndexMap[k]] = start[k];
    mapper.addBatching(batch, to);
    for (size_t j = 0; j < dims->offsetDims.size(); ++j)
      to[mapper.windowDims()[j]] += index[dims->offsetDims[j]];
    if (inBounds(to, results[0].shape()))
      ok = applyUpdate(ctx, kind, fast, results, updates, linearIndex(to, resultStrides), linear);
  });
  if (!ok)
    return false;
  ctx.results = std::move(results);
  return true;
}

} // namespace

void registerGatherKernels(std::map<std::string, Kernel, std::less<>>& t) {
  t["stablehlo.gather"] = gather;
  t["stablehlo.dynamic_gather"] = dynamicGather;
  t["stablehlo.scatter"] = scatter;
}

} // namespace shardscope::exec::detail
