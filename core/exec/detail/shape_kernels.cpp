// Data-movement ops: they only copy elements (byte-wise, so every element type works the same),
// computing for each result index the operand index it comes from.
#include "core/exec/detail/kernel.h"

#include <algorithm>
#include <cstring>

namespace shardscope::exec::detail {

namespace {

int64_t linearOf(std::span<const int64_t> index, std::span<const int64_t> strides) {
  int64_t linear = 0;
  for (size_t d = 0; d < index.size(); ++d)
    linear += index[d] * strides[d];
  return linear;
}

// These kernels index without bounds checks, so they first reject what a verifier would: an
// element type change or a result shape that does not fit the operand.
bool sameRank(KernelContext& ctx, const Tensor& x, const Tensor& out) {
  if (!sameElement(ctx, x, out))
    return false;
  if (x.rank() == out.rank())
    return true;
  return ctx.fail("rank changes from " + x.type().str() + " to " + out.type().str());
}

bool identity(KernelContext& ctx) {
  // Sharding annotations and barriers do not change values on a single device.
  for (const Tensor& t : ctx.operands)
    ctx.results.push_back(t);
  return true;
}

bool reshape(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  if (!sameElement(ctx, ctx.operands[0], *out))
    return false;
  if (out->numElements() != ctx.operands[0].numElements())
    return ctx.fail("element count changes from " + ctx.operands[0].type().str());
  ctx.results.push_back(ctx.operands[0].reinterpreted(out->elementType(), out->shape()));
  return true;
}

bool broadcastInDim(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  auto dims = intListAttr(ctx.op, "broadcast_dimensions");
  if (!out)
    return false;
  if (!dims)
    return ctx.fail("expected one 'broadcast_dimensions' entry per operand dimension");
  if (!broadcastInto(ctx, ctx.operands[0], *dims, *out))
    return false;
  ctx.results.push_back(std::move(*out));
  return true;
}

bool transpose(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  auto perm = intListAttr(ctx.op, "permutation");
  const Tensor& x = ctx.operands[0];
  if (!out)
    return false;
  if (!perm || static_cast<int64_t>(perm->size()) != x.rank())
    return ctx.fail("invalid 'permutation'");
  if (!sameRank(ctx, x, *out))
    return false;
  for (int64_t d = 0; d < x.rank(); ++d)
    if ((*perm)[d] < 0 || (*perm)[d] >= x.rank() || out->shape()[d] != x.shape()[(*perm)[d]])
      return ctx.fail("invalid 'permutation'");
  std::vector<int64_t> strides = x.strides();
  forEachIndex(out->shape(), [&](std::span<const int64_t> index, int64_t linear) {
    int64_t from = 0;
    for (size_t d = 0; d < index.size(); ++d)
      from += index[d] * strides[(*perm)[d]];
    copyElement(x, from, *out, linear);
  });
  ctx.results.push_back(std::move(*out));
  return true;
}

bool slice(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  auto start = intListAttr(ctx.op, "start_indices");
  auto stride = intListAttr(ctx.op, "strides");
  const Tensor& x = ctx.operands[0];
  if (!out)
    return false;
  if (!start || start->size() != x.shape().size())
    return ctx.fail("invalid 'start_indices'");
  std::vector<int64_t> steps = stride ? *stride : std::vector<int64_t>(x.shape().size(), 1);
  if (!sliceInto(ctx, x, *start, steps, *out))
    return false;
  ctx.results.push_back(std::move(*out));
  return true;
}

bool concatenate(KernelContext& ctx) {
  std::optional<Tensor> out = ctx.makeResult(0);
  std::optional<int64_t> dim = intAttr(ctx.op, "dimension");
  if (!out)
    return false;
  if (!dim || *dim < 0 || *dim >= out->rank())
    return ctx.fail("invalid 'dimension'");
  int64_t total = 0;
  for (const Tensor& x : ctx.operands) {
    if (!sameRank(ctx, x, *out))
      return false;
    for (int64_t d = 0; d < x.rank(); ++d)
      if (d != *dim && x.shape()[d] != out->shape()[d])
        return ctx.fail("operand " + x.type().str() + " does not fit " + out->type().str());
    total += x.shape()[*dim];
  }
  if (total != out->shape()[*dim])
    return ctx.fail("operands do not add up to " + out->type().str());
  std::vector<int64_t> outStrides = out->strides();
  int64_t offset = 0;
  for (const Tensor& x : ctx.operands) {
    forEachIndex(x.shape(), [&](std::span<const int64_t> index, int64_t linear) {
      int64_t to = linearOf(index, outStrides) + offset * outStrides[*dim];
      copyElement(x, linear, *out, to);
    });
    offset += x.shape()[*dim];
  }
  ctx.results.push_back(std::move(*out));
  return true;
}

bool pad(KernelContext& ctx) {
  if (!ctx.expectOperands(2))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  auto low = intListAttr(ctx.op, "edge_padding_low");
  auto interior = intListAttr(ctx.op, "interior_padding");
  const Tensor& x = ctx.operands[0];
  if (!out)
    return false;
  if (!low || !interior || low->size() != x.shape().size() || interior->size() != low->size())
    return ctx.fail("invalid padding attributes");
  if (!padInto(ctx, x, ctx.operands[1], *low, *interior, *out))
    return false;
  ctx.results.push_back(std::move(*out));
  return true;
}

bool reverse(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  auto dims = intListAttr(ctx.op, "dimensions");
  const Tensor& x = ctx.operands[0];
  if (!out)
    return false;
  if (!dims)
    return ctx.fail("invalid 'dimensions'");
  if (!sameElement(ctx, x, *out))
    return false;
  if (x.shape() != out->shape())
    return ctx.fail("shape changes from " + x.type().str());
  std::vector<bool> flip(x.shape().size(), false);
  for (int64_t d : *dims)
    if (d >= 0 && d < x.rank())
      flip[d] = true;
  std::vector<int64_t> strides = x.strides();
  forEachIndex(out->shape(), [&](std::span<const int64_t> index, int64_t linear) {
    int64_t from = 0;
    for (size_t d = 0; d < index.size(); ++d)
      from += (flip[d] ? x.shape()[d] - 1 - index[d] : index[d]) * strides[d];
    copyElement(x, from, *out, linear);
  });
  ctx.results.push_back(std::move(*out));
  return true;
}

// Sets every element of `out` to the scalar `value` (same element type), doubling the filled
// prefix with each copy.
void fillWith(const Tensor& value, Tensor& out) {
  std::span<uint8_t> bytes = out.bytes();
  const size_t width = Tensor::elementBytes(value.elementType());
  if (bytes.size() < width)
    return;
  std::memcpy(bytes.data(), value.bytes().data(), width);
  for (size_t filled = width; filled < bytes.size();) {
    size_t n = std::min(filled, bytes.size() - filled);
    std::memcpy(bytes.data() + filled, bytes.data(), n);
    filled += n;
  }
}

// The box of `x` that starts at index `start` and steps `steps` (1 where empty) per dimension.
BoxPlace boxAt(const Tensor& x, std::span<const int64_t> start, std::span<const int64_t> steps) {
  BoxPlace box{0, x.strides()};
  for (size_t d = 0; d < start.size(); ++d) {
    box.base += start[d] * box.strides[d];
    if (!steps.empty())
      box.strides[d] *= steps[d];
  }
  return box;
}

// Start indices of dynamic_slice / dynamic_update_slice, clamped so the window stays in bounds
// as StableHLO specifies.
std::vector<int64_t> clampedStarts(std::span<const Tensor> starts, std::span<const int64_t> shape,
                                   std::span<const int64_t> window) {
  std::vector<int64_t> out(shape.size(), 0);
  for (size_t d = 0; d < shape.size() && d < starts.size(); ++d)
    out[d] = std::max(int64_t{0}, std::min(starts[d].intAt(0), shape[d] - window[d]));
  return out;
}

bool dynamicSlice(KernelContext& ctx) {
  if (ctx.operands.empty())
    return ctx.fail("expected an operand");
  std::optional<Tensor> out = ctx.makeResult(0);
  const Tensor& x = ctx.operands[0];
  if (!out)
    return false;
  if (ctx.operands.size() != static_cast<size_t>(x.rank()) + 1)
    return ctx.fail("expected one start index per operand dimension");
  if (!sameRank(ctx, x, *out))
    return false;
  for (int64_t d = 0; d < x.rank(); ++d)
    if (out->shape()[d] > x.shape()[d])
      return ctx.fail("slice " + out->type().str() + " is larger than " + x.type().str());
  std::vector<int64_t> start = clampedStarts(ctx.operands.subspan(1), x.shape(), out->shape());
  copyBox(x, boxAt(x, start, {}), *out, {0, out->strides()}, out->shape());
  ctx.results.push_back(std::move(*out));
  return true;
}

bool dynamicUpdateSlice(KernelContext& ctx) {
  if (ctx.operands.empty())
    return ctx.fail("expected an operand");
  const Tensor& x = ctx.operands[0];
  if (ctx.operands.size() != static_cast<size_t>(x.rank()) + 2)
    return ctx.fail("expected an update and one start index per operand dimension");
  const Tensor& update = ctx.operands[1];
  bool fits = update.rank() == x.rank() && update.elementType() == x.elementType();
  for (int64_t d = 0; fits && d < x.rank(); ++d)
    fits = update.shape()[d] <= x.shape()[d];
  if (!fits)
    return ctx.fail("update " + update.type().str() + " does not fit " + x.type().str());
  Tensor out = x;
  std::vector<int64_t> start = clampedStarts(ctx.operands.subspan(2), x.shape(), update.shape());
  copyBox(update, {0, update.strides()}, out, boxAt(x, start, {}), update.shape());
  ctx.results.push_back(std::move(out));
  return true;
}

} // namespace

bool sameElement(KernelContext& ctx, const Tensor& x, const Tensor& out) {
  if (x.elementType() == out.elementType())
    return true;
  return ctx.fail("element type changes from " + x.type().str() + " to " + out.type().str());
}

bool broadcastInto(KernelContext& ctx, const Tensor& x, std::span<const int64_t> dims,
                   Tensor& out) {
  if (static_cast<int64_t>(dims.size()) != x.rank())
    return ctx.fail("expected one 'broadcast_dimensions' entry per operand dimension");
  if (!sameElement(ctx, x, out))
    return false;
  for (int64_t d = 0; d < x.rank(); ++d) {
    int64_t to = dims[d];
    if (to < 0 || to >= out.rank() || (x.shape()[d] != 1 && x.shape()[d] != out.shape()[to]))
      return ctx.fail("invalid 'broadcast_dimensions' entry " + std::to_string(to));
  }
  std::vector<int64_t> strides = x.strides();
  forEachIndex(out.shape(), [&](std::span<const int64_t> index, int64_t linear) {
    int64_t from = 0;
    for (int64_t d = 0; d < x.rank(); ++d)
      from += (x.shape()[d] == 1 ? 0 : index[dims[d]]) * strides[d];
    copyElement(x, from, out, linear);
  });
  return true;
}

bool sliceInto(KernelContext& ctx, const Tensor& x, std::span<const int64_t> start,
               std::span<const int64_t> steps, Tensor& out) {
  if (!sameRank(ctx, x, out))
    return false;
  for (int64_t d = 0; d < x.rank(); ++d) {
    if (static_cast<int64_t>(steps.size()) != x.rank() ||
        static_cast<int64_t>(start.size()) != x.rank() || steps[d] <= 0 || start[d] < 0 ||
        (out.shape()[d] > 0 && start[d] + (out.shape()[d] - 1) * steps[d] >= x.shape()[d]))
      return ctx.fail("slice of dimension " + std::to_string(d) + " is out of bounds");
  }
  copyBox(x, boxAt(x, start, steps), out, {0, out.strides()}, out.shape());
  return true;
}

bool padInto(KernelContext& ctx, const Tensor& x, const Tensor& value, std::span<const int64_t> low,
             std::span<const int64_t> interior, Tensor& out) {
  if (!sameRank(ctx, x, out) || !sameElement(ctx, value, out))
    return false;
  if (value.numElements() != 1)
    return ctx.fail("the padding value must be a scalar");
  fillWith(value, out);
  // The operand elements that land inside the result (negative edge padding cuts some away)
  // form a box: along dimension d, indices [first, last) with positions low + i·(interior + 1).
  std::vector<int64_t> xStrides = x.strides(), outStrides = out.strides();
  std::vector<int64_t> first(x.shape().size()), count(x.shape().size());
  BoxPlace from{0, xStrides}, to{0, outStrides};
  for (size_t d = 0; d < first.size(); ++d) {
    int64_t step = interior[d] + 1;
    // Smallest i with low + i·step >= 0, and one past the largest with low + i·step < size.
    int64_t lo = low[d] >= 0 ? 0 : (-low[d] + step - 1) / step;
    int64_t hi = out.shape()[d] - low[d] <= 0 ? 0 : (out.shape()[d] - low[d] - 1) / step + 1;
    hi = std::min(hi, x.shape()[d]);
    count[d] = std::max<int64_t>(0, hi - lo);
    from.base += lo * xStrides[d];
    to.base += (low[d] + lo * step) * outStrides[d];
    to.strides[d] = step * outStrides[d];
  }
  copyBox(x, from, out, to, count);
  return true;
}

void registerShapeKernels(std::map<std::string, Kernel, std::less<>>& t) {
  t["stablehlo.optimization_barrier"] = identity;
  t["sdy.sharding_constraint"] = identity;
  t["sdy.reshard"] = identity;
  t["stablehlo.reshape"] = reshape;
  t["stablehlo.broadcast_in_dim"] = broadcastInDim;
  t["stablehlo.transpose"] = transpose;
  t["stablehlo.slice"] = slice;
  t["stablehlo.concatenate"] = concatenate;
  t["stablehlo.pad"] = pad;
  t["stablehlo.reverse"] = reverse;
  t["stablehlo.dynamic_slice"] = dynamicSlice;
  t["stablehlo.dynamic_update_slice"] = dynamicUpdateSlice;
}

} // namespace shardscope::exec::detail
