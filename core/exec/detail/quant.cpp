#include "core/exec/detail/quant.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

namespace shardscope::exec::detail {

namespace {

// The parameter index of every element: 0 per tensor, the index along the axis per axis.
template <typename Fn> void forEachParam(const QuantType& qt, int64_t n, Fn&& fn) {
  int64_t inner = 1;
  if (qt.axis >= 0)
    for (size_t d = static_cast<size_t>(qt.axis) + 1; d < qt.shape.size(); ++d)
      inner *= qt.shape[d];
  for (int64_t i = 0; i < n; ++i)
    fn(i, qt.axis < 0 ? 0 : (i / inner) % qt.shape[static_cast<size_t>(qt.axis)]);
}

} // namespace

Tensor dequantize(const Tensor& q, const QuantType& qt) {
  Tensor out(qt.expressed, qt.shape);
  forEachParam(qt, out.numElements(), [&](int64_t i, int64_t p) {
    out.setFloat(i, static_cast<double>(q.intAt(i) - qt.zeroPoints[static_cast<size_t>(p)]) *
                        qt.scales[static_cast<size_t>(p)]);
  });
  return out;
}

Tensor quantize(const Tensor& x, const QuantType& qt) {
  Tensor out(qt.storage, qt.shape);
  forEachParam(qt, out.numElements(), [&](int64_t i, int64_t p) {
    double v = std::nearbyint(x.floatAt(i) / qt.scales[static_cast<size_t>(p)] +
                              static_cast<double>(qt.zeroPoints[static_cast<size_t>(p)]));
    v = std::min(std::max(v, static_cast<double>(qt.storageMin)),
                 static_cast<double>(qt.storageMax));
    out.setInt(i, static_cast<int64_t>(v));
  });
  return out;
}

} // namespace shardscope::exec::detail

namespace shardscope::exec::detail {

namespace {

// uniform_quantize: a float operand is quantized to the result type; a quantized operand is
// requantized (dequantized with its own parameters, quantized with the result's).
bool uniformQuantize(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<QuantType> result = quantTypeOf(ctx.op.result(0)->type());
  if (!result)
    return ctx.fail("expected a uniform quantized result type, got " +
                    ctx.op.result(0)->type().str());
  std::optional<QuantType> from = quantTypeOf(ctx.op.operand(0)->type());
  Tensor x = from ? dequantize(ctx.operands[0], *from) : ctx.operands[0];
  if (!ir::isFloatElement(x.elementType()) || x.shape() != result->shape)
    return ctx.fail("expected a float or quantized operand shaped like the result, got " +
                    ctx.op.operand(0)->type().str());
  ctx.results.push_back(quantize(x, *result));
  return true;
}

bool uniformDequantize(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<QuantType> from = quantTypeOf(ctx.op.operand(0)->type());
  if (!from)
    return ctx.fail("expected a uniform quantized operand, got " + ctx.op.operand(0)->type().str());
  Tensor out = dequantize(ctx.operands[0], *from);
  if (out.type() != ctx.op.result(0)->type())
    return ctx.fail("result type " + ctx.op.result(0)->type().str() + " is not " +
                    out.type().str());
  ctx.results.push_back(std::move(out));
  return true;
}

} // namespace

bool hasQuantTypes(const ir::Operation& op) {
  for (unsigned i = 0; i < op.numOperands(); ++i)
    if (quantTypeOf(op.operand(i)->type()))
      return true;
  for (unsigned i = 0; i < op.numResults(); ++i)
    if (quantTypeOf(op.result(i)->type()))
      return true;
  return false;
}

bool runDequantized(KernelContext& ctx, Kernel kernel) {
  std::vector<Tensor> operands;
  for (unsigned i = 0; i < ctx.op.numOperands() && i < ctx.operands.size(); ++i) {
    std::optional<QuantType> q = quantTypeOf(ctx.op.operand(i)->type());
    operands.push_back(q ? dequantize(ctx.operands[i], *q) : ctx.operands[i]);
  }
  std::vector<Tensor> values;
  KernelContext inner{ctx.op, operands, values, ctx.sink, ctx.regions, /*dequantized=*/true};
  if (!kernel(inner))
    return false;
  for (unsigned i = 0; i < values.size(); ++i) {
    std::optional<QuantType> q =
        i < ctx.op.numResults() ? quantTypeOf(ctx.op.result(i)->type()) : std::nullopt;
    ctx.results.push_back(q ? quantize(values[i], *q) : std::move(values[i]));
  }
  return true;
}

void registerQuantKernels(std::map<std::string, Kernel, std::less<>>& table) {
  table["stablehlo.uniform_quantize"] = uniformQuantize;
  table["stablehlo.uniform_dequantize"] = uniformDequantize;
}

} // namespace shardscope::exec::detail
