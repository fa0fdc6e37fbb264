#include "core/partition/detail/global_to_local_converter.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

// -sdy-convert-global-to-local: slices and pads along sharded dimensions (halo exchange).
//
// Slices and pads act on each dimension independently, so a sharded dimension `d` is handled on
// its own: device with shard index k needs the input elements that feed its output block, which
// lie in the blocks of shard indices k + smin .. k + smax. Those blocks are brought in with one
// collective permute per offset s (from the device at index k + s, within the groups of devices
// that differ only along d's axes), concatenated into a window, and the op is applied to the
// window with per-device offsets. Unsharded dimensions are done at the end with a static op.

namespace shardscope::partition::detail {

// Along one sharded dimension of a slice or pad: who holds which block and what each output block
// reads.
struct HaloDim {
  size_t dim = 0;
  // The groups of devices that differ only along the dimension's axes, by shard index.
  const std::vector<std::vector<int64_t>>* groups = nullptr;
  int64_t shards = 0;
  // The block sizes of the operand and of the result along the dimension.
  int64_t inBlock = 0, outBlock = 0;
  // The input range [first, last] each output block reads (nothing for blocks of padding).
  std::vector<std::optional<std::pair<int64_t, int64_t>>> needs;
  // The window of the device at shard index k: the operand blocks k + minShift .. k + maxShift.
  int64_t minShift = 0, maxShift = 0;

  // The shape of the output block a device cuts out of `window` along the dimension.
  std::vector<int64_t> outShape(const ir::Value* window) const {
    std::vector<int64_t> shape(window->type().shape().begin(), window->type().shape().end());
    shape[dim] = outBlock;
    return shape;
  }
  // Per device: `fn(k)` for its shard index k along the dimension, in a table of device ids.
  template <typename Fn> std::vector<int64_t> perDevice(Fn&& fn) const {
    int64_t maxId = 0;
    for (const auto& group : *groups)
      for (int64_t id : group)
        maxId = std::max(maxId, id);
    std::vector<int64_t> values(static_cast<size_t>(maxId + 1), 0);
    for (const auto& group : *groups)
      for (int64_t k = 0; k < shards; ++k)
        values[static_cast<size_t>(group[static_cast<size_t>(k)])] = fn(k);
    return values;
  }
};

namespace {

using ir::Attribute;
using ir::Operation;
using ir::Type;
using ir::Value;
using sharding::ShardingLayout;

bool contains(std::span<const size_t> dims, size_t d) {
  return std::find(dims.begin(), dims.end(), d) != dims.end();
}

// Whether `current` and `result` differ in the size of a dimension not in `sharded`.
bool resizesUnsharded(const Value* current, const Value* result, std::span<const size_t> sharded) {
  for (size_t d = 0; d < current->type().shape().size(); ++d)
    if (!contains(sharded, d) && current->type().shape()[d] != result->type().shape()[d])
      return true;
  return false;
}

// `base` with `values` on the dimensions not in `sharded`.
std::vector<int64_t> onUnsharded(std::vector<int64_t> base, std::span<const int64_t> values,
                                 std::span<const size_t> sharded) {
  for (size_t d = 0; d < base.size(); ++d)
    if (!contains(sharded, d))
      base[d] = values[d];
  return base;
}

struct SliceBounds {
  std::vector<int64_t> start, limit, strides;
};

// `stablehlo.slice` of `value` to `type` within `bounds`.
Value* stridedSlice(HloBuilder& b, Value* value, Type type, const SliceBounds& bounds) {
  std::vector<Value*> operands{value};
  return b.create1("stablehlo.slice", operands, type,
                   {namedAttr("start_indices", Attribute::denseI64Array(bounds.start)),
                    namedAttr("limit_indices", Attribute::denseI64Array(bounds.limit)),
                    namedAttr("strides", Attribute::denseI64Array(bounds.strides))});
}

// A slice along one sharded dimension: its start and stride there, and the scalar type of the
// zeros the window may be extended with.
struct SliceDim {
  int64_t start = 0, stride = 1;
  ir::ElementType element = ir::ElementType::I64;
};

// Each device cuts its output block out of the halo `window` at its own offset (the window
// extended with zeros where an offset runs past it), strided when the slice is.
Value* sliceWindow(HloBuilder& b, const HaloDim& h, Value* window, const SliceDim& s) {
  size_t d = h.dim;
  std::vector<int64_t> outShape = h.outShape(window);
  size_t rank = outShape.size();
  int64_t wn = window->type().shape()[d];
  int64_t li = h.inBlock, lo = h.outBlock, smin = h.minShift;
  int64_t stride = s.stride;
  int64_t size = (lo - 1) * stride + 1;
  std::vector<int64_t> st = h.perDevice([&](int64_t k) {
    const auto& r = h.needs[static_cast<size_t>(k)];
    return r ? s.start + k * lo * stride - (k + smin) * li : 0;
  });
  int64_t over = 0;
  for (int64_t v : st)
    over = std::max(over, v + size - wn);
  if (over > 0) {
    std::vector<int64_t> zeros(rank, 0), high(rank, 0);
    high[d] = over;
    window = b.pad(window, b.zeros(Type::tensor({}, s.element)), zeros, high, zeros);
  }
  std::vector<int64_t> sizes(window->type().shape().begin(), window->type().shape().end());
  sizes[d] = size;
  bool whole = size == window->type().shape()[d] &&
               std::all_of(st.begin(), st.end(), [](int64_t v) { return v == 0; });
  Value* current = nullptr;
  if (whole) {
    // Every device keeps its whole block; still a new value, since its global view (the
    // slice's result) differs from the operand's.
    std::vector<int64_t> begin(rank, 0);
    current = b.slice(window, begin, sizes);
  } else {
    std::vector<Value*> starts;
    for (size_t e = 0; e < rank; ++e)
      starts.push_back(e == d ? b.lookup(st) : b.scalarI64(0));
    current = b.dynamicSlice(window, starts, sizes);
  }
  if (stride > 1) {
    std::vector<int64_t> begin(rank, 0), end(sizes), strides(rank, 1);
    strides[d] = stride;
    current = stridedSlice(b, current, current->type().withShape(outShape), {begin, end, strides});
  }
  return current;
}

// A pad along one sharded dimension: its padding there, the operand's global size there and the
// padding value.
struct PadDim {
  int64_t low = 0, interior = 0, inSize = 0;
  Value* padValue = nullptr;
};

// Elements of the halo `window` outside the input (padding of the last block, blocks past the
// ends) become the padding value.
Value* maskOutsideOperand(HloBuilder& b, const HaloDim& h, Value* window, const PadDim& p) {
  std::vector<int64_t> windowShape(window->type().shape().begin(), window->type().shape().end());
  Type idxType = window->type().withShape(windowShape);
  Type i64Window = Type::tensor(windowShape, ir::ElementType::I64);
  Value* iota = b.create1("stablehlo.iota", {}, i64Window,
                          {namedAttr("iota_dimension", i64Attr(static_cast<int64_t>(h.dim)))});
  Value* first = b.lookup(h.perDevice([&](int64_t k) { return (k + h.minShift) * h.inBlock; }));
  Value* global = b.binary("add", iota, b.broadcast(first, i64Window, {}));
  Value* inside =
      b.binary("and", b.compare("GE", global, b.broadcast(b.scalarI64(0), i64Window, {})),
               b.compare("LT", global, b.broadcast(b.scalarI64(p.inSize), i64Window, {})));
  return b.select(inside, window, b.broadcast(p.padValue, idxType, {}));
}

// Pads the (masked) halo `window` along the dimension and cuts each device's output block out at
// its own offset.
Value* padWindow(HloBuilder& b, const HaloDim& h, Value* window, const PadDim& p) {
  size_t d = h.dim;
  int64_t li = h.inBlock, lo = h.outBlock, smin = h.minShift;
  int64_t step = p.interior + 1;
  std::vector<int64_t> base =
      h.perDevice([&](int64_t k) { return p.low + (k + smin) * li * step - k * lo; });
  int64_t a = 0, need = 0;
  for (int64_t v : base)
    a = std::max(a, v);
  for (int64_t v : base)
    need = std::max(need, a - v + lo);
  int64_t wn = window->type().shape()[d];
  int64_t body = wn + (wn - 1) * p.interior;
  size_t rank = window->type().shape().size();
  std::vector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
  low[d] = a;
  high[d] = std::max<int64_t>(0, need - (a + body));
  interior[d] = p.interior;
  Value* padded = b.pad(window, p.padValue, low, high, interior);
  std::vector<Value*> starts;
  for (size_t e = 0; e < rank; ++e) {
    if (e != d) {
      starts.push_back(b.scalarI64(0));
      continue;
    }
    std::vector<int64_t> st;
    for (int64_t v : base)
      st.push_back(a - v);
    starts.push_back(b.lookup(st));
  }
  return b.dynamicSlice(padded, starts, h.outShape(window));
}

} // namespace

std::optional<std::vector<size_t>> GlobalToLocalConverter::haloDims(const Operation& op) {
  const ShardingLayout* inLayout = layoutOf(op.operand(0));
  const ShardingLayout* outLayout = layoutOf(op.result(0));
  std::vector<size_t> sharded;
  if (!inLayout && !outLayout)
    return sharded;
  size_t rank = static_cast<size_t>(globalType(op.operand(0)).rank());
  auto shardsOf = [](const ShardingLayout* l, size_t d) { return l ? l->shardsPerDim()[d] : 1; };
  for (size_t d = 0; d < rank; ++d)
    if (shardsOf(inLayout, d) > 1 || shardsOf(outLayout, d) > 1)
      sharded.push_back(d);
  const GlobalInfo* inInfo = info(op.operand(0));
  const GlobalInfo* outInfo = info(op.result(0));
  for (size_t d : sharded) {
    bool same = inInfo && inInfo->sharding && outInfo && outInfo->sharding &&
                inInfo->sharding->dims[d].axes == outInfo->sharding->dims[d].axes &&
                *meshOf(*inInfo->sharding) == *meshOf(*outInfo->sharding);
    if (!same) {
      m_sink.error(op.loc(), "'" + std::string(op.name()) + "' changes the sharding of dimension " +
                                 std::to_string(d) +
                                 "; run -sdy-resolve-permutation-factors first");
      return std::nullopt;
    }
  }
  return sharded;
}

template <typename InputIndex>
HaloDim GlobalToLocalConverter::haloDim(const Operation& op, size_t d, InputIndex&& inputIndex) {
  const ir::TensorSharding& outSharding = *info(op.result(0))->sharding;
  HaloDim h;
  h.dim = d;
  h.groups = &m_layouts.groupsAlong(*meshOf(outSharding), outSharding.dims[d].axes);
  int64_t n = static_cast<int64_t>(h.groups->front().size());
  h.shards = n;
  int64_t li = layoutOf(op.operand(0))->localShape()[d];
  int64_t lo = layoutOf(op.result(0))->localShape()[d];
  h.inBlock = li;
  h.outBlock = lo;
  int64_t dout = globalType(op.result(0)).shape()[d];
  h.needs.resize(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    int64_t gBegin = k * lo, gEnd = std::min((k + 1) * lo, dout);
    std::optional<std::pair<int64_t, int64_t>> range;
    for (int64_t g = gBegin; g < gEnd; ++g) {
      int64_t i = inputIndex(g);
      if (i < 0)
        continue;
      range = range ? std::pair{std::min(range->first, i), std::max(range->second, i)}
                    : std::pair{i, i};
    }
    h.needs[static_cast<size_t>(k)] = range;
  }
  for (int64_t k = 0; k < n; ++k)
    if (const auto& r = h.needs[static_cast<size_t>(k)]) {
      h.minShift = std::min(h.minShift, r->first / li - k);
      h.maxShift = std::max(h.maxShift, r->second / li - k);
    }
  return h;
}

Value* GlobalToLocalConverter::haloWindow(HloBuilder& b, const Operation& op, Value* block,
                                          const HaloDim& h) {
  int64_t n = h.shards;
  std::vector<Value*> pieces;
  for (int64_t sft = h.minShift; sft <= h.maxShift; ++sft) {
    if (sft == 0) {
      pieces.push_back(block);
      continue;
    }
    std::vector<std::vector<int64_t>> pairs;
    for (const auto& group : *h.groups)
      for (int64_t k = 0; k < n; ++k)
        if (k + sft >= 0 && k + sft < n)
          pairs.push_back({group[static_cast<size_t>(k + sft)], group[static_cast<size_t>(k)]});
    std::vector<Value*> operands{block};
    std::vector<Type> types{block->type()};
    std::vector<ir::NamedAttribute> attrs{namedAttr("source_target_pairs", i64Matrix(pairs))};
    if (!m_model.usesReplicas())
      attrs.push_back(namedAttr("channel_handle", b.channelHandle()));
    Value* piece =
        b.create("stablehlo.collective_permute", operands, types, std::move(attrs))->result(0);
    logOp(piece, op,
          "halo exchange along dimension " + std::to_string(h.dim) + ": the block " +
              std::to_string(sft) + " shard(s) away");
    pieces.push_back(piece);
  }
  if (pieces.size() == 1)
    return pieces.front();
  std::vector<int64_t> windowShape(block->type().shape().begin(), block->type().shape().end());
  windowShape[h.dim] = h.inBlock * static_cast<int64_t>(pieces.size());
  return b.create1("stablehlo.concatenate", pieces, block->type().withShape(windowShape),
                   {namedAttr("dimension", i64Attr(static_cast<int64_t>(h.dim)))});
}

bool GlobalToLocalConverter::rewriteHalo(Operation& op,
                                         const std::array<std::string_view, 3>& names,
                                         HaloRewrite rewrite) {
  IntLists lists;
  for (size_t i = 0; i < names.size(); ++i) {
    std::optional<std::vector<int64_t>> list = ir::stablehlo::intListAttr(op, names[i]);
    if (!list)
      return true;
    lists[i] = std::move(*list);
  }
  std::optional<std::vector<size_t>> sharded = haloDims(op);
  if (!sharded)
    return false;
  if (sharded->empty())
    return true;
  std::vector<Value*> with{(this->*rewrite)(op, lists, *sharded)};
  replace(op, with);
  return true;
}

bool GlobalToLocalConverter::rewriteSlice(Operation& op) {
  return rewriteHalo(op, {"start_indices", "limit_indices", "strides"},
                     &GlobalToLocalConverter::localSlice);
}

bool GlobalToLocalConverter::rewritePad(Operation& op) {
  return rewriteHalo(op, {"edge_padding_low", "edge_padding_high", "interior_padding"},
                     &GlobalToLocalConverter::localPad);
}

Value* GlobalToLocalConverter::localSlice(Operation& op, const IntLists& bounds,
                                          std::span<const size_t> sharded) {
  const auto& [start, limit, strides] = bounds;
  ir::ElementType element = globalType(op.operand(0)).elementType();
  HloBuilder b = builder(op);
  Value* current = op.operand(0);
  for (size_t d : sharded) {
    int64_t first = start[d], stride = strides[d];
    HaloDim h = haloDim(op, d, [&](int64_t g) { return first + g * stride; });
    Value* window = haloWindow(b, op, current, h);
    current = sliceWindow(b, h, window, SliceDim{first, stride, element});
  }
  // The unsharded dimensions, all at once.
  size_t rank = current->type().shape().size();
  bool offset = false;
  for (size_t d = 0; d < rank; ++d)
    offset = offset || (!contains(sharded, d) && (start[d] != 0 || strides[d] != 1));
  if (!offset && !resizesUnsharded(current, op.result(0), sharded))
    return current;
  std::vector<int64_t> shape(current->type().shape().begin(), current->type().shape().end());
  return stridedSlice(b, current, op.result(0)->type(),
                      {onUnsharded(std::vector<int64_t>(rank, 0), start, sharded),
                       onUnsharded(shape, limit, sharded),
                       onUnsharded(std::vector<int64_t>(rank, 1), strides, sharded)});
}

Value* GlobalToLocalConverter::localPad(Operation& op, const IntLists& padding,
                                        std::span<const size_t> sharded) {
  const auto& [low, high, interior] = padding;
  Type globalIn = globalType(op.operand(0));
  Value* padValue = op.operand(1);
  HloBuilder b = builder(op);
  Value* current = op.operand(0);
  for (size_t d : sharded) {
    int64_t din = globalIn.shape()[d], lowD = low[d], step = interior[d] + 1;
    HaloDim h = haloDim(op, d, [&](int64_t g) -> int64_t {
      int64_t rel = g - lowD;
      return rel >= 0 && rel % step == 0 && rel / step < din ? rel / step : -1;
    });
    PadDim p{lowD, interior[d], din, padValue};
    Value* window = haloWindow(b, op, current, h);
    window = maskOutsideOperand(b, h, window, p);
    current = padWindow(b, h, window, p);
  }
  // The unsharded dimensions, all at once.
  if (!resizesUnsharded(current, op.result(0), sharded))
    return current;
  std::vector<int64_t> zeros(current->type().shape().size(), 0);
  return b.pad(current, padValue, onUnsharded(zeros, low, sharded),
               onUnsharded(zeros, high, sharded), onUnsharded(zeros, interior, sharded));
}

} // namespace shardscope::partition::detail
