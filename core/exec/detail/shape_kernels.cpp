// Data-movement ops: they only copy elements (byte-wise, so every element type works the same),
// computing for each result index the operand index it comes from.
#include "core/exec/detail/kernel.h"

#include <algorithm>

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
  std::vector<int64_t> strides = x.strides();
  forEachIndex(out->shape(), [&](std::span<const int64_t> index, int64_t linear) {
    int64_t from = 0;
    for (size_t d = 0; d < index.size(); ++d)
      from += (start[d] + index[d]) * strides[d];
    copyElement(x, from, *out, linear);
  });
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
  std::vector<int64_t> strides = x.strides();
  forEachIndex(update.shape(), [&](std::span<const int64_t> index, int64_t linear) {
    int64_t to = 0;
    for (size_t d = 0; d < index.size(); ++d)
      to += (start[d] + index[d]) * strides[d];
    copyElement(update, linear, out, to);
  });
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
  std::vector<int64_t> strides = x.strides();
  forEachIndex(out.shape(), [&](std::span<const int64_t> index, int64_t linear) {
    int64_t from = 0;
    for (size_t d = 0; d < index.size(); ++d)
      from += (start[d] + index[d] * steps[d]) * strides[d];
    copyElement(x, from, out, linear);
  });
  return true;
}

bool padInto(KernelContext& ctx, const Tensor& x, const Tensor& value,
             std::span<const int64_t> low, std::span<const int64_t> interior, Tensor& out) {
  if (!sameRank(ctx, x, out) || !sameElement(ctx, value, out))
    return false;
  if (value.numElements() != 1)
    return ctx.fail("the padding value must be a scalar");
  for (int64_t i = 0; i < out.numElements(); ++i)
    copyElement(value, 0, out, i);
  std::vector<int64_t> outStrides = out.strides();
  forEachIndex(x.shape(), [&](std::span<const int64_t> index, int64_t linear) {
    int64_t to = 0;
    for (size_t d = 0; d < index.size(); ++d) {
      int64_t pos = low[d] + index[d] * (interior[d] + 1);
      if (pos < 0 || pos >= out.shape()[d])
        return; // cut away by negative edge padding
      to += pos * outStrides[d];
    }
    copyElement(x, linear, out, to);
  });
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
