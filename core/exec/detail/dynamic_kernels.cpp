// Dynamic-shape ops whose shape operands must agree with the static result type: dynamic_iota,
// dynamic_reshape, dynamic_broadcast_in_dim, dynamic_pad and real_dynamic_slice. The interpreter
// only holds static tensors, so each kernel checks the shape its operands describe against the
// declared result type and reports a mismatch rather than guessing.
#include "core/exec/detail/kernel.h"

#include <algorithm>

namespace shardscope::exec::detail {

namespace {

// The integers of a 1-D shape/index operand, or nothing after reporting.
std::optional<std::vector<int64_t>> shapeOperand(KernelContext& ctx, size_t i, int64_t size,
                                                 const char* what) {
  const Tensor& t = ctx.operands[i];
  if (t.rank() != 1 || !ir::isIntegerElement(t.elementType()) || t.numElements() != size) {
    ctx.fail(std::string("expected '") + what + "' to be a 1-D integer tensor of " +
             std::to_string(size) + " elements, got " + t.type().str());
    return std::nullopt;
  }
  std::vector<int64_t> out;
  for (int64_t k = 0; k < t.numElements(); ++k)
    out.push_back(t.intAt(k));
  return out;
}

std::string listText(const std::vector<int64_t>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i)
    out += (i ? ", " : "") + std::to_string(v[i]);
  return out + "]";
}

bool shapeMatches(KernelContext& ctx, const std::vector<int64_t>& described, const Tensor& out) {
  if (described == out.shape())
    return true;
  return ctx.fail("shape operand " + listText(described) + " does not match the result type " +
                  out.type().str());
}

bool dynamicIota(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  auto shape = shapeOperand(ctx, 0, out->rank(), "output_shape");
  std::optional<int64_t> dim = intAttr(ctx.op, "iota_dimension");
  if (!shape || !shapeMatches(ctx, *shape, *out))
    return false;
  if (!dim || *dim < 0 || *dim >= out->rank())
    return ctx.fail("invalid 'iota_dimension'");
  fillIota(*out, *dim);
  ctx.results.push_back(std::move(*out));
  return true;
}

bool dynamicReshape(KernelContext& ctx) {
  if (!ctx.expectOperands(2))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  auto shape = shapeOperand(ctx, 1, out->rank(), "output_shape");
  const Tensor& x = ctx.operands[0];
  if (!shape || !shapeMatches(ctx, *shape, *out) || !sameElement(ctx, x, *out))
    return false;
  if (x.numElements() != out->numElements())
    return ctx.fail("element count changes from " + x.type().str());
  ctx.results.push_back(x.reinterpreted(out->elementType(), out->shape()));
  return true;
}

bool dynamicBroadcastInDim(KernelContext& ctx) {
  if (!ctx.expectOperands(2))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  auto shape = shapeOperand(ctx, 1, out->rank(), "output_dimensions");
  auto dims = intListAttr(ctx.op, "broadcast_dimensions");
  if (!shape || !shapeMatches(ctx, *shape, *out))
    return false;
  if (!dims)
    return ctx.fail("expected one 'broadcast_dimensions' entry per operand dimension");
  if (!broadcastInto(ctx, ctx.operands[0], *dims, *out))
    return false;
  ctx.results.push_back(std::move(*out));
  return true;
}

bool dynamicPad(KernelContext& ctx) {
  if (!ctx.expectOperands(5))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  const Tensor& x = ctx.operands[0];
  const Tensor& value = ctx.operands[1];
  auto low = shapeOperand(ctx, 2, x.rank(), "edge_padding_low");
  auto high = low ? shapeOperand(ctx, 3, x.rank(), "edge_padding_high") : std::nullopt;
  auto interior = high ? shapeOperand(ctx, 4, x.rank(), "interior_padding") : std::nullopt;
  if (!interior)
    return false;
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < x.rank(); ++d) {
    if ((*interior)[d] < 0)
      return ctx.fail("interior padding must be non-negative");
    int64_t n = x.shape()[d];
    shape.push_back((*low)[d] + (*high)[d] + n + std::max<int64_t>(n - 1, 0) * (*interior)[d]);
  }
  if (!shapeMatches(ctx, shape, *out) || !padInto(ctx, x, value, *low, *interior, *out))
    return false;
  ctx.results.push_back(std::move(*out));
  return true;
}

bool realDynamicSlice(KernelContext& ctx) {
  if (!ctx.expectOperands(4))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  const Tensor& x = ctx.operands[0];
  auto start = shapeOperand(ctx, 1, x.rank(), "start_indices");
  auto limit = start ? shapeOperand(ctx, 2, x.rank(), "limit_indices") : std::nullopt;
  auto strides = limit ? shapeOperand(ctx, 3, x.rank(), "strides") : std::nullopt;
  if (!strides || !sameElement(ctx, x, *out))
    return false;
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < x.rank(); ++d) {
    int64_t s = (*start)[d], l = (*limit)[d], step = (*strides)[d];
    if (s < 0 || l > x.shape()[d] || s > l || step < 1)
      return ctx.fail("slice [" + std::to_string(s) + ", " + std::to_string(l) + ") step " +
                      std::to_string(step) + " is out of range for dimension " + std::to_string(d) +
                      " of " + x.type().str());
    shape.push_back((l - s + step - 1) / step);
  }
  if (!shapeMatches(ctx, shape, *out) || !sliceInto(ctx, x, *start, *strides, *out))
    return false;
  ctx.results.push_back(std::move(*out));
  return true;
}

} // namespace

void registerDynamicKernels(std::map<std::string, Kernel, std::less<>>& t) {
  t["stablehlo.dynamic_iota"] = dynamicIota;
  t["stablehlo.dynamic_reshape"] = dynamicReshape;
  t["stablehlo.dynamic_broadcast_in_dim"] = dynamicBroadcastInDim;
  t["stablehlo.dynamic_pad"] = dynamicPad;
  t["stablehlo.real_dynamic_slice"] = realDynamicSlice;
}

} // namespace shardscope::exec::detail
