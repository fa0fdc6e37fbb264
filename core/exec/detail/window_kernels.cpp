// Windowed ops: reduce_window (base and window dilations, padding that may be negative, strides,
// several operands, any body; single-op bodies on a fast path) and select_and_scatter.
#include "core/exec/detail/kernel.h"

#include <algorithm>

namespace shardscope::exec::detail {

namespace {

// Window attributes, one entry per dimension, with the spec's defaults filled in.
struct Window {
  std::vector<int64_t> dims, strides, baseDilations, windowDilations, padLow, padHigh;
};

std::optional<std::vector<int64_t>> listOr(const ir::Operation& op, std::string_view name,
                                           size_t rank, int64_t fallback) {
  if (!op.attr(name))
    return std::vector<int64_t>(rank, fallback);
  auto list = intListAttr(op, name);
  if (!list || list->size() != rank)
    return std::nullopt;
  return list;
}

std::optional<Window> readWindow(KernelContext& ctx, int64_t rank) {
  auto n = static_cast<size_t>(rank);
  Window w;
  auto dims = intListAttr(ctx.op, "window_dimensions");
  auto strides = listOr(ctx.op, "window_strides", n, 1);
  auto base = listOr(ctx.op, "base_dilations", n, 1);
  auto dilations = listOr(ctx.op, "window_dilations", n, 1);
  auto padding = listOr(ctx.op, "padding", 2 * n, 0);
  if (!dims || dims->size() != n || !strides || !base || !dilations || !padding) {
    ctx.fail("expected window attributes with one entry per dimension (rank " +
             std::to_string(rank) + ")");
    return std::nullopt;
  }
  w.dims = *dims;
  w.strides = *strides;
  w.baseDilations = *base;
  w.windowDilations = *dilations;
  for (size_t d = 0; d < n; ++d) {
    w.padLow.push_back((*padding)[2 * d]);
    w.padHigh.push_back((*padding)[2 * d + 1]);
    if (w.dims[d] < 1 || w.strides[d] < 1 || w.baseDilations[d] < 1 || w.windowDilations[d] < 1) {
      ctx.fail("window sizes, strides and dilations must be positive");
      return std::nullopt;
    }
  }
  return w;
}

// The result shape the spec derives from `shape` and `w`.
std::vector<int64_t> windowedShape(const std::vector<int64_t>& shape, const Window& w) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t dilated = shape[d] == 0 ? 0 : (shape[d] - 1) * w.baseDilations[d] + 1;
    int64_t padded = dilated + w.padLow[d] + w.padHigh[d];
    int64_t window = (w.dims[d] - 1) * w.windowDilations[d] + 1;
    out.push_back(padded < window ? 0 : (padded - window) / w.strides[d] + 1);
  }
  return out;
}

// The operand element under padded, base-dilated position `at`, or -1 for padding.
int64_t sourceElement(const std::vector<int64_t>& at, const std::vector<int64_t>& shape,
                      const std::vector<int64_t>& strides, const Window& w) {
  int64_t linear = 0;
  for (size_t d = 0; d < at.size(); ++d) {
    int64_t q = at[d] - w.padLow[d];
    if (q < 0 || q % w.baseDilations[d] != 0 || q / w.baseDilations[d] >= shape[d])
      return -1;
    linear += q / w.baseDilations[d] * strides[d];
  }
  return linear;
}

// Calls `fn(element)` for every window element of result index `index`, in row-major window
// order; `element` is -1 for padding. Stops early when `fn` returns false.
template <typename Fn>
bool forEachWindowElement(std::span<const int64_t> index, const std::vector<int64_t>& shape,
                          const std::vector<int64_t>& strides, const Window& w, Fn&& fn) {
  std::vector<int64_t> at(index.size());
  bool ok = true;
  forEachIndex(w.dims, [&](std::span<const int64_t> offset, int64_t) {
    if (!ok)
      return;
    for (size_t d = 0; d < at.size(); ++d)
      at[d] = index[d] * w.strides[d] + offset[d] * w.windowDilations[d];
    ok = fn(sourceElement(at, shape, strides, w));
  });
  return ok;
}

bool validReduceWindow(KernelContext& ctx, size_t n, const Window& w) {
  std::vector<int64_t> expected = windowedShape(ctx.operands[0].shape(), w);
  for (size_t k = 0; k < n; ++k) {
    const Tensor& input = ctx.operands[k];
    const Tensor& init = ctx.operands[n + k];
    ir::Type result = ctx.op.result(static_cast<unsigned>(k))->type();
    bool ok = input.shape() == ctx.operands[0].shape() && init.numElements() == 1 &&
              init.elementType() == input.elementType() && result.isTensor() &&
              std::vector<int64_t>(result.shape().begin(), result.shape().end()) == expected;
    if (!ok)
      return ctx.fail("reduce_window input " + std::to_string(k) +
                      " does not match its init value or result type " + result.str());
  }
  return true;
}

// Folds one window element into the accumulators `acc`: `element` indexes the inputs, or is -1
// for padding, which reads the init values and goes through the body like any other element.
// `fast` names a single-op body to apply directly (one operand only), or is empty.
bool foldElement(KernelContext& ctx, std::string_view fast, int64_t element,
                 std::vector<Tensor>& acc) {
  size_t n = acc.size();
  auto elementOf = [&](size_t k) {
    return element < 0 ? ctx.operands[n + k] : scalarOf(ctx.operands[k], element);
  };
  if (!fast.empty()) {
    Tensor x = elementOf(0);
    if (ir::isFloatElement(x.elementType()))
      acc[0].setFloat(0, combineFloat(fast, acc[0].floatAt(0), x.floatAt(0)));
    else
      acc[0].setInt(0,
                    combineInt(fast, acc[0].intAt(0), x.intAt(0), isUnsignedLike(x.elementType())));
    return true;
  }
  std::vector<Tensor> args = acc;
  for (size_t k = 0; k < n; ++k)
    args.push_back(elementOf(k));
  auto values = ctx.regions.runRegion(ctx.op.region(0), std::move(args));
  if (!values)
    return false;
  if (values->size() != n)
    return ctx.fail("reduce_window body returned the wrong number of values");
  for (size_t k = 0; k < n; ++k) {
    if ((*values)[k].type() != acc[k].type())
      return ctx.fail("reduce_window body returned " + (*values)[k].type().str());
    acc[k] = std::move((*values)[k]);
  }
  return true;
}

bool reduceWindow(KernelContext& ctx) {
  size_t n = ctx.operands.size() / 2;
  if (n == 0 || ctx.operands.size() != 2 * n || ctx.op.numResults() != n ||
      ctx.op.numRegions() != 1 || ctx.op.region(0).empty())
    return ctx.fail("expected inputs, init values, one result per input and a body");
  std::optional<Window> w = readWindow(ctx, ctx.operands[0].rank());
  if (!w || !validReduceWindow(ctx, n, *w))
    return false;
  std::vector<Tensor> outs;
  for (size_t k = 0; k < n; ++k) {
    std::optional<Tensor> out = ctx.makeResult(static_cast<unsigned>(k));
    if (!out)
      return false;
    outs.push_back(std::move(*out));
  }
  const Tensor& first = ctx.operands[0];
  std::string_view fast = n == 1 ? singleOpBody(ctx.op) : std::string_view();
  if (!isFastCombiner(fast, first.elementType()))
    fast = {};
  std::vector<int64_t> strides = first.strides();
  bool ok = true;
  forEachIndex(outs[0].shape(), [&](std::span<const int64_t> index, int64_t linear) {
    if (!ok)
      return;
    std::vector<Tensor> acc(ctx.operands.begin() + static_cast<ptrdiff_t>(n), ctx.operands.end());
    ok = forEachWindowElement(index, first.shape(), strides, *w, [&](int64_t element) {
      return foldElement(ctx, fast, element, acc);
    });
    for (size_t k = 0; ok && k < n; ++k)
      copyElement(acc[k], 0, outs[k], linear);
  });
  if (!ok)
    return false;
  ctx.results = std::move(outs);
  return true;
}

// The first window element wins until `select(selected, current)` returns false; padding is
// never selected. Returns the chosen operand element, -1 when the window is all padding, or
// nothing after an error.
std::optional<int64_t> selectInWindow(KernelContext& ctx, std::span<const int64_t> index,
                                      const std::vector<int64_t>& strides, const Window& w) {
  const Tensor& operand = ctx.operands[0];
  int64_t selected = -1;
  bool ok = forEachWindowElement(index, operand.shape(), strides, w, [&](int64_t element) {
    if (element < 0)
      return true;
    if (selected < 0) {
      selected = element;
      return true;
    }
    auto values = ctx.regions.runRegion(ctx.op.region(0),
                                        {scalarOf(operand, selected), scalarOf(operand, element)});
    if (!values)
      return false;
    if (values->size() != 1 || (*values)[0].elementType() != ir::ElementType::I1 ||
        (*values)[0].numElements() != 1)
      return ctx.fail("select must return one i1 scalar");
    if (!(*values)[0].intAt(0))
      selected = element;
    return true;
  });
  if (!ok)
    return std::nullopt;
  return selected;
}

bool selectAndScatter(KernelContext& ctx) {
  if (!ctx.expectOperands(3))
    return false;
  if (ctx.op.numRegions() != 2 || ctx.op.region(0).empty() || ctx.op.region(1).empty())
    return ctx.fail("expected a select and a scatter region");
  const Tensor& operand = ctx.operands[0];
  const Tensor& source = ctx.operands[1];
  const Tensor& init = ctx.operands[2];
  std::optional<Window> w = readWindow(ctx, operand.rank());
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!w || !out)
    return false;
  if (out->type() != operand.type() || init.numElements() != 1 ||
      init.elementType() != operand.elementType() || source.elementType() != operand.elementType())
    return ctx.fail("operand, source, init value and result must share the element type");
  if (source.shape() != windowedShape(operand.shape(), *w))
    return ctx.fail("source shape " + source.type().str() + " does not match the windows of " +
                    operand.type().str());
  for (int64_t i = 0; i < out->numElements(); ++i)
    copyElement(init, 0, *out, i);
  std::vector<int64_t> strides = operand.strides();
  bool ok = true;
  forEachIndex(source.shape(), [&](std::span<const int64_t> index, int64_t linear) {
    if (!ok)
      return;
    std::optional<int64_t> selected = selectInWindow(ctx, index, strides, *w);
    if (!selected || *selected < 0) {
      ok = selected.has_value();
      return;
    }
    auto values = ctx.regions.runRegion(ctx.op.region(1),
                                        {scalarOf(*out, *selected), scalarOf(source, linear)});
    if (!values || values->size() != 1 || (*values)[0].elementType() != out->elementType()) {
      ok =
          values ? ctx.fail("scatter must return one scalar of the operand's element type") : false;
      return;
    }
    copyElement((*values)[0], 0, *out, *selected);
  });
  if (!ok)
    return false;
  ctx.results.push_back(std::move(*out));
  return true;
}

} // namespace

void registerWindowKernels(std::map<std::string, Kernel, std::less<>>& t) {
  t["stablehlo.reduce_window"] = reduceWindow;
  t["stablehlo.select_and_scatter"] = selectAndScatter;
}

} // namespace shardscope::exec::detail
