// sort: every 1-D slice along `dimension` is sorted by the comparator region, all operands
// permuted alike. The sort is a bottom-up merge sort, so it is always stable (a valid choice
// when `is_stable` is false) and stays in bounds even for a comparator that is not a strict weak
// order, such as FLOAT comparisons with NaN. A comparator that is a single compare of one
// operand's pair is evaluated without running the region.
#include "core/exec/detail/kernel.h"

#include <numeric>

namespace shardscope::exec::detail {

namespace {

// A comparator that is exactly `compare %lhs_k, %rhs_k` (or the swapped pair) of one operand `k`
// is evaluated directly instead of running the region once per comparison.
struct FastComparator {
  size_t operand = 0;
  bool swapped = false;
  ElementCompare compare;
};

std::optional<FastComparator> fastComparator(const ir::Operation& op,
                                             std::span<const Tensor> operands) {
  const ir::Block& body = op.region(0).front();
  if (body.ops().size() != 2 || body.numArguments() != 2 * operands.size())
    return std::nullopt;
  const ir::Operation& cmp = *body.ops().front();
  const ir::Operation& ret = *body.back();
  if (!cmp.is("stablehlo.compare") || cmp.numOperands() != 2 || cmp.numResults() != 1 ||
      ret.numOperands() != 1 || ret.operand(0) != cmp.result(0))
    return std::nullopt;
  for (unsigned k = 0; k < operands.size(); ++k) {
    const ir::Value* lhs = body.argument(2 * k);
    const ir::Value* rhs = body.argument(2 * k + 1);
    bool direct = cmp.operand(0) == lhs && cmp.operand(1) == rhs;
    bool swapped = cmp.operand(0) == rhs && cmp.operand(1) == lhs;
    if (!direct && !swapped)
      continue;
    std::optional<ElementCompare> compare = ElementCompare::of(cmp, operands[k].elementType());
    if (!compare)
      return std::nullopt;
    return FastComparator{k, swapped, *compare};
  }
  return std::nullopt;
}

class SliceSorter {
public:
  SliceSorter(KernelContext& ctx, int64_t stride)
      : m_ctx(ctx), m_stride(stride), m_fast(fastComparator(ctx.op, ctx.operands)) {}

  /// Sorts the slice of `length` elements starting at `base` into `order` (positions within the
  /// slice); false after reporting a comparator failure.
  bool sort(int64_t base, int64_t length, std::vector<int64_t>& order) {
    m_base = base;
    order.resize(static_cast<size_t>(length));
    std::iota(order.begin(), order.end(), 0);
    std::vector<int64_t> merged(order.size());
    for (int64_t width = 1; width < length; width *= 2) {
      for (int64_t lo = 0; lo < length; lo += 2 * width)
        if (!merge(order, merged, lo, std::min(lo + width, length),
                   std::min(lo + 2 * width, length)))
          return false;
      order.swap(merged);
    }
    return true;
  }

private:
  bool merge(const std::vector<int64_t>& in, std::vector<int64_t>& out, int64_t lo, int64_t mid,
             int64_t hi) {
    int64_t i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
      std::optional<bool> rightFirst = less(in[j], in[i]);
      if (!rightFirst)
        return false;
      out[k++] = *rightFirst ? in[j++] : in[i++]; // ties keep the left (earlier) element
    }
    while (i < mid)
      out[k++] = in[i++];
    while (j < hi)
      out[k++] = in[j++];
    return true;
  }

  std::optional<bool> less(int64_t a, int64_t b) {
    if (m_fast) {
      const Tensor& t = m_ctx.operands[m_fast->operand];
      int64_t x = m_base + a * m_stride, y = m_base + b * m_stride;
      return m_fast->swapped ? m_fast->compare(t, y, t, x) : m_fast->compare(t, x, t, y);
    }
    std::vector<Tensor> args;
    for (const Tensor& t : m_ctx.operands) {
      args.push_back(scalarOf(t, m_base + a * m_stride));
      args.push_back(scalarOf(t, m_base + b * m_stride));
    }
    auto values = m_ctx.regions.runRegion(m_ctx.op.region(0), std::move(args));
    if (!values)
      return std::nullopt;
    if (values->size() != 1 || (*values)[0].numElements() != 1 ||
        (*values)[0].elementType() != ir::ElementType::I1) {
      m_ctx.fail("comparator must return one i1 scalar");
      return std::nullopt;
    }
    return (*values)[0].intAt(0) != 0;
  }

  KernelContext& m_ctx;
  int64_t m_stride;
  std::optional<FastComparator> m_fast;
  int64_t m_base = 0;
};

bool sort(KernelContext& ctx) {
  if (ctx.operands.empty() || ctx.op.numResults() != ctx.operands.size() ||
      ctx.op.numRegions() != 1 || ctx.op.region(0).empty())
    return ctx.fail("expected operands, one result per operand and a comparator");
  const Tensor& first = ctx.operands[0];
  int64_t dim = intAttr(ctx.op, "dimension").value_or(-1);
  if (dim < 0)
    dim += first.rank();
  if (dim < 0 || dim >= first.rank())
    return ctx.fail("invalid 'dimension' for " + first.type().str());
  for (unsigned k = 0; k < ctx.operands.size(); ++k)
    if (ctx.operands[k].shape() != first.shape() ||
        ctx.operands[k].type() != ctx.op.result(k)->type())
      return ctx.fail("operand " + std::to_string(k) +
                      " does not match the first operand or its "
                      "result");
  std::vector<Tensor> results(ctx.operands.begin(), ctx.operands.end());
  std::vector<int64_t> strides = first.strides();
  std::vector<int64_t> outer = first.shape();
  int64_t length = outer[dim];
  outer[dim] = 1;
  SliceSorter sorter(ctx, strides[dim]);
  std::vector<int64_t> order;
  bool ok = true;
  forEachIndex(outer, [&](std::span<const int64_t> index, int64_t) {
    if (!ok)
      return;
    int64_t base = linearIndex(index, strides);
    ok = sorter.sort(base, length, order);
    for (size_t k = 0; ok && k < results.size(); ++k)
      for (int64_t i = 0; i < length; ++i)
        copyElement(ctx.operands[k], base + order[i] * strides[dim], results[k],
                    base + i * strides[dim]);
  });
  if (!ok)
    return false;
  ctx.results = std::move(results);
  return true;
}

} // namespace

void registerSortKernels(std::map<std::string, Kernel, std::less<>>& t) {
  t["stablehlo.sort"] = sort;
}

} // namespace shardscope::exec::detail
