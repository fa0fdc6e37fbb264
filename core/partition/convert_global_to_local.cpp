#include "core/partition/convert_global_to_local.h"

#include "core/ir/stablehlo_attrs.h"
#include "core/partition/detail/global_view.h"
#include "core/partition/detail/hlo_builder.h"
#include "core/partition/detail/mesh_groups.h"
#include "core/sharding/mesh_view.h"
#include "core/sharding/sharding_layout.h"
#include "core/sharding/value_sharding.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

namespace shardscope::partition {
namespace {

using detail::GlobalInfo;
using detail::HloBuilder;
using detail::i64Attr;
using detail::namedAttr;
using ir::Attribute;
using ir::AxisRef;
using ir::Operation;
using ir::TensorSharding;
using ir::Type;
using ir::Value;
using sharding::MeshView;
using sharding::ShardingLayout;

bool sameShape(std::span<const int64_t> a, std::span<const int64_t> b);

class Converter {
public:
  Converter(ir::Module& module, const ConvertGlobalToLocalOptions& options,
            support::DiagnosticSink& sink, std::vector<LoweredCollective>* log)
      : m_module(module), m_options(options), m_sink(sink), m_log(log) {
    m_model.replicaCount = options.replicaCount;
    m_model.partitionCount = options.partitionCount;
  }

  bool run();
  void startChannelsAfter(int64_t next) { m_nextChannel = next; }

private:
  void recordValue(Value* value);
  void localizeTypes(Operation& fn);
  bool rewrite(Operation& op);
  void inlineManualComputation(Operation& op);
  void updateSignature(Operation& fn);

  const GlobalInfo* info(const Value* value) const {
    return m_global.find(value);
  }
  Type globalType(const Value* value) const {
    const GlobalInfo* i = info(value);
    return i ? i->type : value->type();
  }
  // The layout of `value`'s global view (null: none, i.e. replicated or not a static tensor).
  const ShardingLayout* layoutOf(const Value* value) {
    const GlobalInfo* i = info(value);
    return i ? m_layouts.layoutOf(*i, m_module) : nullptr;
  }
  bool sameLayout(const ShardingLayout* a, const ShardingLayout* b);
  const ir::Mesh* meshOf(const TensorSharding& sharding) const {
    return ir::resolveMesh(m_module, sharding);
  }
  // The mesh of `value`'s global sharding; null when it has none (collectives on such values are
  // left alone).
  const ir::Mesh* shardedMesh(const Value* value) const {
    const GlobalInfo* i = info(value);
    return i && i->sharding ? meshOf(*i->sharding) : nullptr;
  }
  HloBuilder builder(Operation& before) { return HloBuilder(before, m_model, &m_nextChannel); }
  // Per-device table (indexed by device id) of `fn(block)` over the blocks of `layout`.
  template <typename Fn> std::vector<int64_t> table(const ShardingLayout& layout, Fn&& fn);
  void logOp(const Value* value, const Operation& source, std::string reason) {
    if (m_log && value && value->definingOp())
      m_log->push_back(
          {value->definingOp(), std::string(source.name()), source.loc(), std::move(reason)});
  }
  void replace(Operation& op, std::span<Value* const> with);
  void forget(Operation& op);

  bool rewriteConstant(Operation& op);
  bool rewriteIota(Operation& op);
  bool rewritePad(Operation& op);
  bool rewriteConvolution(Operation& op);
  bool rewriteSlice(Operation& op);
  bool rewriteSliceOrPad(Operation& op, bool isPad);
  bool checkLocal(Operation& op);
  bool rewriteGather(Operation& op);
  bool rewriteScatter(Operation& op);
  bool lowerAllGather(Operation& op);
  bool needsReplication(const Operation& op);
  void lowerViaReplication(Operation& op);
  // `input` (local, laid out by `inSharding`) laid out by `outLayout` instead: gathered whole,
  // then each device's block cut out. Returns the new local value.
  Value* reshardLocal(Operation& before, Value* input, const TensorSharding* inSharding,
                      Type global, const ShardingLayout* outLayout, const Operation& source);
  bool lowerAllReduce(Operation& op);
  bool lowerReduceScatter(Operation& op);
  bool lowerAllToAll(Operation& op);
  bool lowerCollectivePermute(Operation& op);
  bool lowerAllSlice(Operation& op);
  bool lowerReplicatedToUnreduced(Operation& op);
  bool lowerShardedToUnreduced(Operation& op);

  ir::Module& m_module;
  const ConvertGlobalToLocalOptions& m_options;
  support::DiagnosticSink& m_sink;
  std::vector<LoweredCollective>* m_log;
  detail::DeviceModel m_model;
  int64_t m_nextChannel = 1;
  detail::GlobalTable m_global;
  detail::LayoutCache m_layouts;
  detail::ShardingPool m_shardings;
  bool m_ok = true;
};

template <typename Fn>
std::vector<int64_t> Converter::table(const ShardingLayout& layout, Fn&& fn) {
  const std::vector<sharding::DeviceBlock>& blocks = m_layouts.blocks(layout);
  int64_t maxId = 0;
  for (const auto& b : blocks)
    maxId = std::max(maxId, b.deviceId);
  std::vector<int64_t> values(static_cast<size_t>(maxId + 1), 0);
  for (const auto& b : blocks)
    values[static_cast<size_t>(b.deviceId)] = fn(b);
  return values;
}

void Converter::recordValue(Value* value) {
  // Shardings are interned rather than copied: every value of the module is recorded.
  std::optional<TensorSharding> scratch;
  const TensorSharding* s = sharding::valueShardingRef(*value, scratch);
  m_global.emplace(value, GlobalInfo{value->type(), s ? m_shardings.intern(*s) : nullptr});
}

void Converter::localizeTypes(Operation& fn) {
  // Record every value's global type and sharding first: valueSharding reads the structure
  // (manual computations, collectives) that the rewrites below change.
  std::vector<Value*> values;
  fn.walk([&](Operation& op) {
    for (unsigned r = 0; r < op.numRegions(); ++r)
      for (auto& block : op.region(r).blocks())
        for (const auto& arg : block->arguments())
          values.push_back(arg.get());
    if (&op != &fn)
      for (const auto& result : op.results())
        values.push_back(result.get());
  });
  m_global.reserve(m_global.size() + values.size());
  for (Value* v : values)
    recordValue(v);
  for (Value* v : values)
    if (const ShardingLayout* layout = layoutOf(v))
      v->setType(m_layouts.localType(v->type(), *layout));
}

void Converter::forget(Operation& op) {
  // The values of an erased op are freed and their addresses reused by later ops: their global
  // view must not outlive them.
  op.walk([&](Operation& nested) {
    for (const auto& result : nested.results())
      m_global.erase(result.get());
    for (unsigned r = 0; r < nested.numRegions(); ++r)
      for (auto& block : nested.region(r).blocks())
        for (const auto& arg : block->arguments())
          m_global.erase(arg.get());
  });
}

void Converter::replace(Operation& op, std::span<Value* const> with) {
  for (unsigned i = 0; i < op.numResults(); ++i) {
    // Later rewrites read the global view of the replacement (e.g. a collective on it).
    if (const GlobalInfo* old = info(op.result(i)); old && !m_global.contains(with[i]))
      m_global.emplace(with[i], *old);
    op.result(i)->replaceAllUsesWith(with[i]);
  }
  forget(op);
  op.dropAllReferences();
  op.parentBlock()->erase(&op);
}

bool Converter::run() {
  for (Operation* fn : m_module.functions()) {
    if (!ir::func::body(*fn))
      continue;
    localizeTypes(*fn);
    std::vector<Operation*> ops;
    fn->walk([&](Operation& op) {
      if (&op != fn)
        ops.push_back(&op);
    });
    for (Operation* op : ops)
      if (!rewrite(*op))
        m_ok = false;
    std::vector<Operation*> manuals;
    fn->walk([&](Operation& op) {
      if (op.is("sdy.manual_computation") || op.is("sdy.named_computation"))
        manuals.push_back(&op);
    });
    for (Operation* op : manuals)
      inlineManualComputation(*op);
    updateSignature(*fn);
  }
  return m_ok;
}

bool Converter::rewrite(Operation& op) {
  std::string_view name = op.name();
  if (name == "stablehlo.constant" || name == "sdy.constant")
    return rewriteConstant(op);
  if (name == "stablehlo.iota")
    return rewriteIota(op);
  if (name == "stablehlo.pad")
    return rewritePad(op);
  if (name == "stablehlo.convolution")
    return rewriteConvolution(op);
  if (name == "stablehlo.gather")
    return rewriteGather(op);
  if (name == "stablehlo.scatter")
    return rewriteScatter(op);
  if (name == "stablehlo.slice")
    return rewriteSlice(op);
  if (name == "stablehlo.dynamic_slice") {
    // Sharded dimensions are sliced whole (see resolvePermutationFactors): local sizes.
    std::span<const int64_t> local = op.result(0)->type().shape();
    op.setAttr("slice_sizes", Attribute::denseI64Array({local.begin(), local.end()}));
    return true;
  }
  if (name == "stablehlo.reverse" || name == "stablehlo.reshape")
    return checkLocal(op);
  if (name == "sdy.all_gather")
    return lowerAllGather(op);
  if (name == "sdy.all_reduce")
    return lowerAllReduce(op);
  if (name == "sdy.reduce_scatter")
    return lowerReduceScatter(op);
  if (name == "sdy.all_to_all")
    return lowerAllToAll(op);
  if (name == "sdy.collective_permute")
    return lowerCollectivePermute(op);
  if (name == "sdy.all_slice")
    return lowerAllSlice(op);
  if (name == "sdy.sharding_constraint" || name == "sdy.reshard" ||
      name == "sdy.propagation_barrier") {
    // Identities when every device already holds its block; otherwise (a constraint or reshard
    // that -sdy-reshard-to-collectives didn't lower) through the replicated value.
    if (sameLayout(layoutOf(op.operand(0)), layoutOf(op.result(0)))) {
      std::vector<Value*> with{op.operand(0)};
      replace(op, with);
      return true;
    }
    lowerViaReplication(op);
    return true;
  }
  if (name == "sdy.replicated_to_unreduced")
    return lowerReplicatedToUnreduced(op);
  if (name == "sdy.sharded_to_unreduced")
    return lowerShardedToUnreduced(op);
  return true;
}

void Converter::inlineManualComputation(Operation& op) {
  ir::Block& body = op.region(0).front();
  bool named = op.is("sdy.named_computation");
  for (unsigned i = 0; i < body.numArguments(); ++i) {
    Value* operand = op.operand(i);
    // A named computation's `in_shardings` may lay its arguments out differently from the
    // operands (a manual computation's body sees exactly the operand's blocks).
    if (named && !sameLayout(layoutOf(operand), layoutOf(body.argument(i)))) {
      const GlobalInfo* in = info(operand);
      operand = reshardLocal(op, operand, in ? in->sharding : nullptr, globalType(operand),
                             layoutOf(body.argument(i)), op);
    }
    body.argument(i)->replaceAllUsesWith(operand);
  }
  Operation* terminator = body.back();
  std::vector<Value*> returned(terminator->operands().begin(), terminator->operands().end());
  if (named)
    for (size_t i = 0; i < returned.size(); ++i)
      if (!sameLayout(layoutOf(returned[i]), layoutOf(op.result(static_cast<unsigned>(i))))) {
        const GlobalInfo* in = info(returned[i]);
        returned[i] = reshardLocal(*terminator, returned[i], in ? in->sharding : nullptr,
                                   globalType(returned[i]),
                                   layoutOf(op.result(static_cast<unsigned>(i))), op);
      }
  while (body.ops().front().get() != terminator) {
    Operation* moved = body.ops().front().get();
    op.parentBlock()->insertBefore(&op, body.take(moved));
  }
  for (unsigned i = 0; i < op.numResults(); ++i) {
    // The body's value may carry a different (equivalent) local type spelling; the body's
    // type is the one the device computes.
    op.result(i)->replaceAllUsesWith(returned[i]);
  }
  terminator->dropAllReferences();
  forget(op);
  op.dropAllReferences();
  op.parentBlock()->erase(&op);
}

void Converter::updateSignature(Operation& fn) {
  ir::Block* body = ir::func::body(fn);
  std::vector<Type> inputs;
  for (const auto& arg : body->arguments())
    inputs.push_back(arg->type());
  std::vector<Type> results(ir::func::type(fn).results().begin(),
                            ir::func::type(fn).results().end());
  if (Operation* ret = body->back(); ret && ret->numOperands() == results.size())
    for (unsigned i = 0; i < results.size(); ++i)
      results[i] = ret->operand(i)->type();
  fn.setAttr("function_type", Attribute::type(Type::function(inputs, results)));
}

// --- Device-dependent StableHLO ops --------------------------------------------------------

bool Converter::rewriteConstant(Operation& op) {
  Value* result = op.result(0);
  Type global = globalType(result);
  Type local = result->type();
  Attribute value = op.attr("value");
  const auto* dense = value.as<ir::DenseElementsAttr>();
  HloBuilder b = builder(op);
  if (global == local || !dense) {
    if (op.is("stablehlo.constant"))
      return true;
    std::vector<Type> types{global};
    Operation* c = b.create("stablehlo.constant", {}, types, {namedAttr("value", value)});
    std::vector<Value*> with{c->result(0)};
    replace(op, with);
    return true;
  }
  auto layout = layoutOf(result);
  Value* out = nullptr;
  if (dense->isSplat) {
    auto storage = std::make_shared<ir::DenseElementsAttr>(*dense);
    storage->type = local;
    Attribute splat(std::shared_ptr<const ir::AttrStorage>(std::move(storage)));
    out = b.create1("stablehlo.constant", {}, local, {namedAttr("value", splat)});
  } else {
    Value* full = b.create1("stablehlo.constant", {}, global, {namedAttr("value", value)});
    std::vector<Value*> starts;
    std::vector<int64_t> localShape = layout->localShape();
    for (size_t d = 0; d < localShape.size(); ++d)
      starts.push_back(b.lookup(table(*layout, [&](const sharding::DeviceBlock& blk) {
        return blk.shardIndex[d] * localShape[d];
      })));
    out = b.dynamicSlice(full, starts, localShape);
    logOp(out, op, "each device keeps its block of the sharded constant");
  }
  std::vector<Value*> with{out};
  replace(op, with);
  return true;
}

bool Converter::rewriteIota(Operation& op) {
  Value* result = op.result(0);
  auto layout = layoutOf(result);
  auto dim = ir::stablehlo::intAttr(op, "iota_dimension");
  if (!layout || !dim || layout->shardsPerDim()[static_cast<size_t>(*dim)] == 1)
    return true;
  size_t d = static_cast<size_t>(*dim);
  int64_t localSize = result->type().shape()[d];
  HloBuilder b = builder(op);
  std::vector<Type> types{result->type()};
  Operation* iota =
      b.create("stablehlo.iota", {}, types, {namedAttr("iota_dimension", i64Attr(*dim))});
  Value* offset = b.lookup(table(
      *layout, [&](const sharding::DeviceBlock& blk) { return blk.shardIndex[d] * localSize; }));
  Type scalar = Type::tensor({}, result->type().elementType());
  Value* shifted =
      b.binary("add", iota->result(0), b.broadcast(b.convert(offset, scalar), result->type(), {}));
  logOp(shifted, op, "the iota is offset by the start of the device's block");
  std::vector<Value*> with{shifted};
  replace(op, with);
  return true;
}

// --- Slices and pads along sharded dimensions (halo exchange) ------------------------------
//
// Slices and pads act on each dimension independently, so a sharded dimension `d` is handled on
// its own: device with shard index k needs the input elements that feed its output block, which
// lie in the blocks of shard indices k + smin .. k + smax. Those blocks are brought in with one
// collective permute per offset s (from the device at index k + s, within the groups of devices
// that differ only along d's axes), concatenated into a window, and the op is applied to the
// window with per-device offsets. Unsharded dimensions are done at the end with a static op.

struct SlicePadParams {
  bool isPad = false;
  // Per dimension: slice start / stride, or pad low / interior (high is implied by the shapes).
  std::vector<int64_t> start, stride, limit, low, high, interior;
};

bool Converter::rewritePad(Operation& op) { return rewriteSliceOrPad(op, /*isPad=*/true); }
bool Converter::rewriteSlice(Operation& op) { return rewriteSliceOrPad(op, /*isPad=*/false); }

bool Converter::rewriteSliceOrPad(Operation& op, bool isPad) {
  Value* operand = op.operand(0);
  Value* result = op.result(0);
  auto inLayout = layoutOf(operand);
  auto outLayout = layoutOf(result);
  if (!inLayout && !outLayout)
    return true;
  SlicePadParams params;
  params.isPad = isPad;
  if (isPad) {
    auto low = ir::stablehlo::intListAttr(op, "edge_padding_low");
    auto high = ir::stablehlo::intListAttr(op, "edge_padding_high");
    auto interior = ir::stablehlo::intListAttr(op, "interior_padding");
    if (!low || !high || !interior)
      return true;
    params.low = *low, params.high = *high, params.interior = *interior;
  } else {
    auto start = ir::stablehlo::intListAttr(op, "start_indices");
    auto limit = ir::stablehlo::intListAttr(op, "limit_indices");
    auto strides = ir::stablehlo::intListAttr(op, "strides");
    if (!start || !limit || !strides)
      return true;
    params.start = *start, params.limit = *limit, params.stride = *strides;
  }
  Type globalIn = globalType(operand), globalOut = globalType(result);
  size_t rank = static_cast<size_t>(globalIn.rank());
  auto shardsOf = [](const ShardingLayout* l, size_t d) { return l ? l->shardsPerDim()[d] : 1; };
  std::vector<size_t> sharded;
  for (size_t d = 0; d < rank; ++d)
    if (shardsOf(inLayout, d) > 1 || shardsOf(outLayout, d) > 1)
      sharded.push_back(d);
  if (sharded.empty())
    return true;
  const GlobalInfo* inInfo = info(operand);
  const GlobalInfo* outInfo = info(result);
  for (size_t d : sharded) {
    bool same = inInfo && inInfo->sharding && outInfo && outInfo->sharding &&
                inInfo->sharding->dims[d].axes == outInfo->sharding->dims[d].axes &&
                *meshOf(*inInfo->sharding) == *meshOf(*outInfo->sharding);
    if (!same) {
      m_sink.error(op.loc(), "'" + std::string(op.name()) + "' changes the sharding of dimension " +
                                 std::to_string(d) +
                                 "; run -sdy-resolve-permutation-factors first");
      return false;
    }
  }
  HloBuilder b = builder(op);
  MeshView view(*meshOf(*outInfo->sharding));
  Value* current = operand;
  Type elementScalar = Type::tensor({}, globalIn.elementType());
  Value* padValue = isPad ? op.operand(1) : nullptr;
  for (size_t d : sharded) {
    const std::vector<AxisRef>& axes = outInfo->sharding->dims[d].axes;
    const std::vector<std::vector<int64_t>>& groups = m_layouts.groupsAlong(view.mesh(), axes);
    int64_t n = static_cast<int64_t>(groups.front().size());
    int64_t li = inLayout->localShape()[d], lo = outLayout->localShape()[d];
    int64_t din = globalIn.shape()[d], dout = globalOut.shape()[d];
    // The input range [first, last] each output block reads (nothing for blocks of padding).
    std::vector<std::optional<std::pair<int64_t, int64_t>>> needs(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) {
      int64_t gBegin = k * lo, gEnd = std::min((k + 1) * lo, dout);
      std::optional<std::pair<int64_t, int64_t>> range;
      for (int64_t g = gBegin; g < gEnd; ++g) {
        int64_t i = -1;
        if (isPad) {
          int64_t rel = g - params.low[d], step = params.interior[d] + 1;
          if (rel >= 0 && rel % step == 0 && rel / step < din)
            i = rel / step;
        } else {
          i = params.start[d] + g * params.stride[d];
        }
        if (i < 0)
          continue;
        range = range ? std::pair{std::min(range->first, i), std::max(range->second, i)}
                      : std::pair{i, i};
      }
      needs[static_cast<size_t>(k)] = range;
    }
    int64_t smin = 0, smax = 0;
    for (int64_t k = 0; k < n; ++k)
      if (const auto& r = needs[static_cast<size_t>(k)]) {
        smin = std::min(smin, r->first / li - k);
        smax = std::max(smax, r->second / li - k);
      }
    // The window: blocks k + smin .. k + smax, each received from its holder.
    std::vector<Value*> pieces;
    for (int64_t sft = smin; sft <= smax; ++sft) {
      if (sft == 0) {
        pieces.push_back(current);
        continue;
      }
      std::vector<std::vector<int64_t>> pairs;
      for (const auto& group : groups)
        for (int64_t k = 0; k < n; ++k)
          if (k + sft >= 0 && k + sft < n)
            pairs.push_back({group[static_cast<size_t>(k + sft)], group[static_cast<size_t>(k)]});
      std::vector<Value*> operands{current};
      std::vector<Type> types{current->type()};
      std::vector<ir::NamedAttribute> attrs{
          namedAttr("source_target_pairs", detail::i64Matrix(pairs))};
      if (!m_model.usesReplicas())
        attrs.push_back(namedAttr("channel_handle", b.channelHandle()));
      Value* piece =
          b.create("stablehlo.collective_permute", operands, types, std::move(attrs))->result(0);
      logOp(piece, op,
            "halo exchange along dimension " + std::to_string(d) + ": the block " +
                std::to_string(sft) + " shard(s) away");
      pieces.push_back(piece);
    }
    std::vector<int64_t> windowShape(current->type().shape().begin(),
                                     current->type().shape().end());
    windowShape[d] = li * static_cast<int64_t>(pieces.size());
    Value* window =
        pieces.size() == 1
            ? pieces.front()
            : b.create1("stablehlo.concatenate", pieces, current->type().withShape(windowShape),
                        {namedAttr("dimension", i64Attr(static_cast<int64_t>(d)))});
    int64_t wn = windowShape[d];
    // Per device: its shard index along d, through a table of device ids.
    auto perDevice = [&](auto&& fn) {
      int64_t maxId = 0;
      for (const auto& group : groups)
        for (int64_t id : group)
          maxId = std::max(maxId, id);
      std::vector<int64_t> values(static_cast<size_t>(maxId + 1), 0);
      for (const auto& group : groups)
        for (int64_t k = 0; k < n; ++k)
          values[static_cast<size_t>(group[static_cast<size_t>(k)])] = fn(k);
      return values;
    };
    std::vector<Value*> zeroStarts;
    std::vector<int64_t> outShape = windowShape;
    outShape[d] = lo;
    if (isPad) {
      // Elements of the window outside the input (padding of the last block, blocks past the
      // ends) become the padding value.
      Type idxType = current->type().withShape(windowShape);
      Type i64Window = Type::tensor(windowShape, ir::ElementType::I64);
      Value* iota = b.create1("stablehlo.iota", {}, i64Window,
                              {namedAttr("iota_dimension", i64Attr(static_cast<int64_t>(d)))});
      Value* first = b.lookup(perDevice([&](int64_t k) { return (k + smin) * li; }));
      Value* global = b.binary("add", iota, b.broadcast(first, i64Window, {}));
      Value* inside =
          b.binary("and", b.compare("GE", global, b.broadcast(b.scalarI64(0), i64Window, {})),
                   b.compare("LT", global, b.broadcast(b.scalarI64(din), i64Window, {})));
      window = b.select(inside, window, b.broadcast(padValue, idxType, {}));
      int64_t step = params.interior[d] + 1;
      std::vector<int64_t> base =
          perDevice([&](int64_t k) { return params.low[d] + (k + smin) * li * step - k * lo; });
      int64_t a = 0, need = 0;
      for (int64_t v : base)
        a = std::max(a, v);
      for (int64_t v : base)
        need = std::max(need, a - v + lo);
      int64_t body = wn + (wn - 1) * params.interior[d];
      std::vector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
      low[d] = a;
      high[d] = std::max<int64_t>(0, need - (a + body));
      interior[d] = params.interior[d];
      Value* padded = b.pad(window, padValue, low, high, interior);
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
      current = b.dynamicSlice(padded, starts, outShape);
    } else {
      int64_t stride = params.stride[d];
      int64_t size = (lo - 1) * stride + 1;
      std::vector<int64_t> st = perDevice([&](int64_t k) {
        const auto& r = needs[static_cast<size_t>(k)];
        return r ? params.start[d] + k * lo * stride - (k + smin) * li : 0;
      });
      int64_t over = 0;
      for (int64_t v : st)
        over = std::max(over, v + size - wn);
      if (over > 0) {
        std::vector<int64_t> zeros(rank, 0), high(rank, 0);
        high[d] = over;
        window = b.pad(window, b.zeros(elementScalar), zeros, high, zeros);
      }
      std::vector<int64_t> sizes(window->type().shape().begin(), window->type().shape().end());
      sizes[d] = size;
      bool whole = size == window->type().shape()[d] &&
                   std::all_of(st.begin(), st.end(), [](int64_t v) { return v == 0; });
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
        std::vector<Value*> operands{current};
        current = b.create1("stablehlo.slice", operands, current->type().withShape(outShape),
                            {namedAttr("start_indices", Attribute::denseI64Array(begin)),
                             namedAttr("limit_indices", Attribute::denseI64Array(end)),
                             namedAttr("strides", Attribute::denseI64Array(strides))});
      }
    }
  }
  // The unsharded dimensions, all at once.
  bool rest = false;
  for (size_t d = 0; d < rank; ++d)
    rest = rest ||
           (std::find(sharded.begin(), sharded.end(), d) == sharded.end() &&
            current->type().shape()[d] != result->type().shape()[d]) ||
           (!isPad && std::find(sharded.begin(), sharded.end(), d) == sharded.end() &&
            (params.start[d] != 0 || params.stride[d] != 1));
  if (rest) {
    std::vector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
    std::vector<int64_t> begin(rank, 0),
        end(current->type().shape().begin(), current->type().shape().end()), strides(rank, 1);
    for (size_t d = 0; d < rank; ++d) {
      if (std::find(sharded.begin(), sharded.end(), d) != sharded.end())
        continue;
      if (isPad) {
        low[d] = params.low[d], high[d] = params.high[d], interior[d] = params.interior[d];
      } else {
        begin[d] = params.start[d], end[d] = params.limit[d], strides[d] = params.stride[d];
      }
    }
    std::vector<Value*> operands{current};
    if (isPad) {
      current = b.pad(current, padValue, low, high, interior);
    } else {
      current = b.create1("stablehlo.slice", operands, result->type(),
                          {namedAttr("start_indices", Attribute::denseI64Array(begin)),
                           namedAttr("limit_indices", Attribute::denseI64Array(end)),
                           namedAttr("strides", Attribute::denseI64Array(strides))});
    }
  }
  std::vector<Value*> with{current};
  replace(op, with);
  return true;
}

// Reverse and reshape stay as they are when every device's block maps to its own block; the
// element counts tell when they don't.
bool Converter::checkLocal(Operation& op) {
  Value* operand = op.operand(0);
  Value* result = op.result(0);
  bool bad = false;
  if (op.is("stablehlo.reshape")) {
    bad = operand->type().numElements() != result->type().numElements();
  } else if (auto dims = ir::stablehlo::intListAttr(op, "dimensions")) {
    for (int64_t d : *dims)
      bad = bad || operand->type().shape()[static_cast<size_t>(d)] !=
                       globalType(operand).shape()[static_cast<size_t>(d)];
  }
  if (bad)
    m_sink.error(op.loc(), "'" + std::string(op.name()) +
                               "' moves data across devices; run "
                               "-sdy-resolve-permutation-factors first");
  return !bad;
}

bool Converter::rewriteConvolution(Operation& op) {
  auto dims = ir::stablehlo::convDimensionNumbers(op);
  if (!dims)
    return true;
  auto shrink = [&](std::string_view attr, int64_t dim) {
    auto count = ir::stablehlo::intAttr(op, attr);
    if (!count || *count <= 1)
      return;
    int64_t global = globalType(op.operand(0)).shape()[static_cast<size_t>(dim)];
    int64_t local = op.operand(0)->type().shape()[static_cast<size_t>(dim)];
    if (local > 0 && global % local == 0 && *count % (global / local) == 0)
      op.setAttr(attr, i64Attr(*count / (global / local)));
  };
  shrink("feature_group_count", dims->inputFeature);
  shrink("batch_group_count", dims->inputBatch);
  return true;
}

// Gather from an operand sharded along a dimension the indices select into: each device looks
// the index up in its own block (shifted by the block's start) and zeroes the rows whose index
// falls outside it, so that the all-reduce that follows (the dimension is a reduction factor)
// sums exactly one real value.
bool Converter::rewriteGather(Operation& op) {
  auto layout = layoutOf(op.operand(0));
  auto dims = ir::stablehlo::gatherDimensionNumbers(op);
  auto sliceSizes = ir::stablehlo::intListAttr(op, "slice_sizes");
  if (!layout || !dims || !sliceSizes)
    return true;
  Value* operand = op.operand(0);
  Value* indices = op.operand(1);
  Type globalOperand = globalType(operand);
  std::span<const int64_t> local = operand->type().shape();
  std::vector<int64_t> newSizes = *sliceSizes;
  std::vector<size_t> masked;
  for (size_t d = 0; d < local.size(); ++d) {
    if (layout->shardsPerDim()[d] == 1 ||
        std::count(dims->operandBatchingDims.begin(), dims->operandBatchingDims.end(),
                   static_cast<int64_t>(d)))
      continue;
    if ((*sliceSizes)[d] == globalOperand.shape()[d])
      newSizes[d] = local[d];
    else
      masked.push_back(d);
  }
  if (newSizes != *sliceSizes)
    op.setAttr("slice_sizes", Attribute::denseI64Array(newSizes));
  if (masked.empty())
    return true;

  HloBuilder b = builder(op);
  Type indexType = indices->type();
  std::vector<int64_t> idxShape(indexType.shape().begin(), indexType.shape().end());
  size_t ivd = static_cast<size_t>(dims->indexVectorDim);
  bool implicitVector = ivd == idxShape.size();
  Value* idx = indices;
  if (implicitVector) {
    idxShape.push_back(1);
    idx = b.reshape(indices, indexType.withShape(idxShape));
  }
  std::vector<int64_t> compShape = idxShape;
  compShape[ivd] = 1;
  Type compType = indexType.withShape(compShape);
  Type scalarIdx = Type::tensor({}, indexType.elementType());
  Type predType = Type::tensor(compShape, ir::ElementType::I1);
  auto splat = [&](int64_t v) { return b.intConstant(compType, std::vector{v}); };
  auto offsetOf = [&](size_t d) {
    int64_t size = local[d];
    return b.lookup(
        table(*layout, [&](const sharding::DeviceBlock& blk) { return blk.shardIndex[d] * size; }));
  };
  Value* valid = nullptr;
  auto andValid = [&](Value* v) { valid = valid ? b.binary("and", valid, v) : v; };
  std::vector<Value*> components;
  int64_t numComponents = idxShape[ivd];
  for (int64_t c = 0; c < numComponents; ++c) {
    std::vector<int64_t> start(idxShape.size(), 0), limit = idxShape;
    start[ivd] = c;
    limit[ivd] = c + 1;
    Value* comp = numComponents == 1 ? idx : b.slice(idx, start, limit);
    size_t d = static_cast<size_t>(dims->startIndexMap[static_cast<size_t>(c)]);
    if (std::find(masked.begin(), masked.end(), d) == masked.end()) {
      components.push_back(comp);
      continue;
    }
    int64_t size = (*sliceSizes)[d];
    // The global gather clamps the start into [0, dim - size]; do that first, then shift.
    Value* clamped = b.binary("minimum", b.binary("maximum", comp, splat(0)),
                              splat(globalOperand.shape()[d] - size));
    Value* off = b.broadcast(b.convert(offsetOf(d), scalarIdx), compType, {});
    Value* shifted = b.binary("subtract", clamped, off);
    andValid(b.compare("GE", shifted, splat(0)));
    andValid(b.compare("LE", shifted, splat(local[d] - size)));
    components.push_back(shifted);
  }
  // Masked dimensions the indices don't select start at 0 globally.
  for (size_t d : masked) {
    if (std::count(dims->startIndexMap.begin(), dims->startIndexMap.end(), static_cast<int64_t>(d)))
      continue;
    Value* isFirst = b.compare("EQ", b.convert(offsetOf(d), scalarIdx),
                               b.intConstant(scalarIdx, std::vector<int64_t>{0}));
    andValid(b.broadcast(isFirst, predType, {}));
  }
  Value* newIdx = components.front();
  if (components.size() > 1)
    newIdx = b.create1("stablehlo.concatenate", components, indexType.withShape(idxShape),
                       {namedAttr("dimension", i64Attr(static_cast<int64_t>(ivd)))});
  if (implicitVector)
    newIdx = b.reshape(newIdx, indexType);
  op.setOperand(1, newIdx);

  // Mask the result: batch dimensions of the result are the index dims (minus the vector dim).
  Value* result = op.result(0);
  Type resultType = result->type();
  std::vector<int64_t> batchShape;
  for (size_t i = 0; i < compShape.size(); ++i)
    if (i != ivd)
      batchShape.push_back(compShape[i]);
  std::vector<int64_t> batchDims;
  for (int64_t i = 0; i < resultType.rank(); ++i)
    if (!std::count(dims->offsetDims.begin(), dims->offsetDims.end(), i))
      batchDims.push_back(i);
  Operation* next =
      &*std::next(std::find_if(op.parentBlock()->ops().begin(), op.parentBlock()->ops().end(),
                               [&](const auto& o) { return o.get() == &op; }))
            ->get();
  HloBuilder after = builder(*next);
  Value* mask = after.reshape(valid, Type::tensor(batchShape, ir::ElementType::I1));
  mask = after.broadcast(mask, Type::tensor(resultType.shape(), ir::ElementType::I1), batchDims);
  Value* masked0 = after.select(mask, result, after.zeros(resultType));
  for (const ir::Use& use : std::vector<ir::Use>(result->uses()))
    if (use.user != masked0->definingOp())
      use.user->setOperand(use.index, masked0);
  logOp(masked0, op, "rows whose index lies outside the device's block of the operand are zeroed");
  return true;
}

// Scatter into an operand sharded along a dimension the indices select into: the indices are
// shifted by the device's block start; updates that fall outside the block are out of bounds
// and skipped, as the StableHLO spec says. Updates sharded along scatter batch dimensions the
// operand isn't sharded on (a reduction factor) must see the operand on only one device.
bool Converter::rewriteScatter(Operation& op) {
  if (op.numOperands() != 3)
    return true;
  auto dims = ir::stablehlo::scatterDimensionNumbers(op);
  if (!dims)
    return true;
  Value* operand = op.operand(0);
  Value* indices = op.operand(1);
  Value* updates = op.operand(2);
  HloBuilder b = builder(op);
  auto layout = layoutOf(operand);
  std::span<const int64_t> local = operand->type().shape();
  Type indexType = indices->type();
  size_t ivd = static_cast<size_t>(dims->indexVectorDim);
  bool anySharded = false;
  if (layout)
    for (int64_t d : dims->startIndexMap)
      anySharded = anySharded || layout->shardsPerDim()[static_cast<size_t>(d)] > 1;
  if (anySharded) {
    std::vector<Value*> offsetValues;
    bool any = false;
    Type scalarIdx = Type::tensor({}, indexType.elementType());
    for (size_t c = 0; c < dims->startIndexMap.size(); ++c) {
      size_t d = static_cast<size_t>(dims->startIndexMap[c]);
      if (layout->shardsPerDim()[d] == 1) {
        offsetValues.push_back(b.intConstant(scalarIdx, std::vector<int64_t>{0}));
        continue;
      }
      any = true;
      int64_t size = local[d];
      offsetValues.push_back(b.convert(
          b.lookup(table(
              *layout, [&](const sharding::DeviceBlock& blk) { return blk.shardIndex[d] * size; })),
          scalarIdx));
    }
    if (any) {
      // Broadcast the per-component offsets along the index vector dimension.
      std::vector<int64_t> vecShape{static_cast<int64_t>(offsetValues.size())};
      Type vecType = Type::tensor(vecShape, indexType.elementType());
      std::vector<Value*> pieces;
      for (Value* v : offsetValues)
        pieces.push_back(
            b.reshape(v, Type::tensor(std::vector<int64_t>{1}, indexType.elementType())));
      Value* vec = pieces.size() == 1 ? pieces.front()
                                      : b.create1("stablehlo.concatenate", pieces, vecType,
                                                  {namedAttr("dimension", i64Attr(0))});
      std::vector<int64_t> bdims;
      if (ivd < static_cast<size_t>(indexType.rank()))
        bdims.push_back(static_cast<int64_t>(ivd));
      Value* off = bdims.empty() ? b.broadcast(b.reshape(vec, scalarIdx), indexType, {})
                                 : b.broadcast(vec, indexType, bdims);
      Value* shifted = b.binary("subtract", indices, off);
      op.setOperand(1, shifted);
      logOp(shifted, op, "indices are shifted into the device's block of the operand");
    }
  }
  // Axes sharding the updates' scatter batch dims but not the operand: only the first device
  // along them keeps the operand, the others start from zero, so the all-reduce adds it once.
  auto updLayout = layoutOf(updates);
  auto updInfo = info(updates);
  auto opInfo = info(operand);
  if (updLayout && updInfo && updInfo->sharding) {
    std::vector<AxisRef> operandAxes;
    if (opInfo && opInfo->sharding)
      for (const auto& dim : opInfo->sharding->dims)
        operandAxes.insert(operandAxes.end(), dim.axes.begin(), dim.axes.end());
    bool reduced = false;
    for (int64_t d = 0; d < updates->type().rank(); ++d) {
      if (std::count(dims->offsetDims.begin(), dims->offsetDims.end(), d))
        continue;
      for (const AxisRef& axis : updInfo->sharding->dims[static_cast<size_t>(d)].axes)
        if (std::find(operandAxes.begin(), operandAxes.end(), axis) == operandAxes.end())
          reduced = true;
    }
    if (reduced) {
      std::vector<int64_t> first = table(*updLayout, [&](const sharding::DeviceBlock& blk) {
        int64_t isFirst = 1;
        for (int64_t d = 0; d < updates->type().rank(); ++d)
          if (!std::count(dims->offsetDims.begin(), dims->offsetDims.end(), d) &&
              blk.shardIndex[static_cast<size_t>(d)] != 0)
            isFirst = 0;
        return isFirst;
      });
      Value* keep = b.compare("EQ", b.lookup(first), b.scalarI64(1));
      Type predType = Type::tensor(operand->type().shape(), ir::ElementType::I1);
      Value* base = b.select(b.broadcast(keep, predType, {}), operand, b.zeros(operand->type()));
      op.setOperand(0, base);
      logOp(base, op, "the operand counts once in the reduction over the updates' axes");
    }
  }
  return true;
}

// --- Shardy collectives ------------------------------------------------------------------

std::string reductionOp(const Operation& op) {
  const auto* kind = op.attr("reduction_kind").as<ir::OpaqueAttr>();
  std::string k = kind ? kind->text : "sum";
  if (k == "max")
    return "maximum";
  if (k == "min")
    return "minimum";
  if (k == "prod" || k == "mul" || k == "product")
    return "multiply";
  return "add";
}

bool sameShape(std::span<const int64_t> a, std::span<const int64_t> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

// Returns true when two layouts (nothing: replicated) give every device the same block.
bool Converter::sameLayout(const ShardingLayout* a, const ShardingLayout* b) {
  if (!a || !b) {
    const ShardingLayout* other = a ? a : b;
    return !other || other->numShards() == 1;
  }
  if (a == b) // interned: the same layout
    return true;
  if (a->localShape() != b->localShape())
    return false;
  for (const sharding::DeviceBlock& block : m_layouts.blocks(*a)) {
    const sharding::DeviceBlock* twin = m_layouts.blockOf(*b, block.deviceId);
    if (!twin || twin->ranges != block.ranges)
      return false;
  }
  return a->numDevices() == b->numDevices();
}

// With a dimension its shards don't divide, blocks of a coarser and a finer sharding of it don't
// nest (5 over 2 is blocks of 3, over 4 blocks of 2), so a collective that changes such a
// dimension's axes, other than to or from replicated, can't move blocks directly: it goes
// through the replicated value. All-to-alls need divisible dimensions on both sides.
bool Converter::needsReplication(const Operation& op) {
  auto inLayout = layoutOf(op.operand(0));
  auto outLayout = layoutOf(op.result(0));
  const GlobalInfo* in = info(op.operand(0));
  const GlobalInfo* out = info(op.result(0));
  if (!inLayout || !outLayout || !in || !out || !in->sharding || !out->sharding)
    return false;
  for (size_t d = 0; d < in->sharding->dims.size(); ++d) {
    const auto& inAxes = in->sharding->dims[d].axes;
    const auto& outAxes = out->sharding->dims[d].axes;
    if (inAxes == outAxes || (!inLayout->isPadded(d) && !outLayout->isPadded(d)))
      continue;
    if (op.is("sdy.all_to_all") || (!inAxes.empty() && !outAxes.empty()))
      return true;
  }
  return false;
}

// Gathers every sharded dimension, drops the padding, then cuts each device's output block out
// of the global value (padded to whole blocks).
void Converter::lowerViaReplication(Operation& op) {
  const GlobalInfo* in = info(op.operand(0));
  Value* out = reshardLocal(op, op.operand(0), in ? in->sharding : nullptr,
                            globalType(op.operand(0)), layoutOf(op.result(0)), op);
  std::vector<Value*> with{out};
  replace(op, with);
}

Value* Converter::reshardLocal(Operation& before, Value* input, const TensorSharding* inSharding,
                               Type global, const ShardingLayout* outLayout,
                               const Operation& source) {
  HloBuilder b = builder(before);
  Value* current = input;
  const ir::Mesh* inMesh = inSharding ? meshOf(*inSharding) : nullptr;
  if (inMesh) {
    MeshView view(*inMesh);
    for (size_t d = 0; d < inSharding->dims.size(); ++d) {
      const auto& axes = inSharding->dims[d].axes;
      if (axes.empty())
        continue;
      const std::vector<std::vector<int64_t>>& groups = m_layouts.groupsAlong(view.mesh(), axes);
      std::vector<int64_t> shape(current->type().shape().begin(), current->type().shape().end());
      shape[d] *= static_cast<int64_t>(groups.front().size());
      std::vector<Value*> operands{current};
      std::vector<Type> types{current->type().withShape(shape)};
      std::vector<ir::NamedAttribute> attrs{
          namedAttr("all_gather_dim", i64Attr(static_cast<int64_t>(d)))};
      for (auto& a : b.collectiveAttrs(m_layouts.groupsMatrix(groups), /*globalIds=*/true))
        attrs.push_back(std::move(a));
      current = b.create("stablehlo.all_gather", operands, types, std::move(attrs))->result(0);
      logOp(current, source, "gathers dimension " + std::to_string(d) + " to the whole value");
    }
  }
  if (!sameShape(current->type().shape(), global.shape())) {
    std::vector<int64_t> start(static_cast<size_t>(global.rank()), 0);
    std::vector<int64_t> limit(global.shape().begin(), global.shape().end());
    current = b.slice(current, start, limit);
  }
  if (!outLayout)
    return current;
  std::vector<int64_t> padded = outLayout->paddedShape();
  std::vector<int64_t> low(padded.size(), 0), high(padded.size(), 0);
  bool pad = false;
  for (size_t d = 0; d < padded.size(); ++d) {
    high[d] = padded[d] - global.shape()[d];
    pad = pad || high[d] > 0;
  }
  if (pad)
    current = b.pad(current, b.zeros(Type::tensor({}, global.elementType())), low, high, low);
  std::vector<int64_t> local = outLayout->localShape();
  if (!sameShape(current->type().shape(), local)) {
    std::vector<Value*> starts;
    for (size_t d = 0; d < local.size(); ++d)
      starts.push_back(b.lookup(table(*outLayout, [&](const sharding::DeviceBlock& blk) {
        return blk.shardIndex[d] * local[d];
      })));
    current = b.dynamicSlice(current, starts, local);
    logOp(current, source, "each device keeps its block");
  }
  return current;
}

// Blocks of a non-divisible dimension are padded at the end, so the gathered tensor is the
// global one followed by padding: keep the leading `type` elements.
Value* dropPadding(HloBuilder& b, Value* value, Type type) {
  if (value->type() == type)
    return value;
  std::vector<int64_t> start(static_cast<size_t>(type.rank()), 0);
  std::vector<int64_t> limit(type.shape().begin(), type.shape().end());
  return b.slice(value, start, limit);
}

bool Converter::lowerAllGather(Operation& op) {
  if (needsReplication(op)) {
    lowerViaReplication(op);
    return true;
  }
  const auto* axes = op.attr("gathering_axes").as<ir::AxisRefListListAttr>();
  const ir::Mesh* mesh = shardedMesh(op.operand(0));
  if (!axes || !mesh)
    return true;
  MeshView view(*mesh);
  HloBuilder b = builder(op);
  Value* current = op.operand(0);
  Type resultType = op.result(0)->type();
  std::vector<size_t> gatheredDims;
  for (size_t d = 0; d < axes->lists.size(); ++d)
    if (!axes->lists[d].empty())
      gatheredDims.push_back(d);
  if (m_options.perDimAllGather || gatheredDims.size() <= 1) {
    for (size_t d : gatheredDims) {
      const std::vector<std::vector<int64_t>>& groups =
          m_layouts.groupsAlong(view.mesh(), axes->lists[d]);
      std::vector<int64_t> shape(current->type().shape().begin(), current->type().shape().end());
      shape[d] *= static_cast<int64_t>(groups.front().size());
      std::vector<Value*> operands{current};
      std::vector<Type> types{current->type().withShape(shape)};
      std::vector<ir::NamedAttribute> attrs{
          namedAttr("all_gather_dim", i64Attr(static_cast<int64_t>(d)))};
      for (auto& a : b.collectiveAttrs(m_layouts.groupsMatrix(groups), /*globalIds=*/true))
        attrs.push_back(std::move(a));
      current = b.create("stablehlo.all_gather", operands, types, std::move(attrs))->result(0);
      logOp(current, op, "gathers dimension " + std::to_string(d));
    }
    current = dropPadding(b, current, resultType);
  } else {
    // One all-gather over every gathered axis, along a new leading dimension, then put each
    // piece in place: [g0*g1*..., l...] -> [g0, g1, ..., l0, l1, ...] -> [g0, l0, g1, l1, ...].
    std::vector<AxisRef> all;
    std::vector<int64_t> groupSizes;
    for (size_t d : gatheredDims) {
      all.insert(all.end(), axes->lists[d].begin(), axes->lists[d].end());
      int64_t n = 1;
      for (const AxisRef& a : axes->lists[d])
        n *= view.sizeOf(a);
      groupSizes.push_back(n);
    }
    const std::vector<std::vector<int64_t>>& groups = m_layouts.groupsAlong(view.mesh(), all);
    std::span<const int64_t> localShape = current->type().shape();
    size_t rank = localShape.size();
    std::vector<int64_t> withLead{1};
    withLead.insert(withLead.end(), localShape.begin(), localShape.end());
    Value* lead = b.reshape(current, current->type().withShape(withLead));
    withLead[0] = static_cast<int64_t>(groups.front().size());
    std::vector<Value*> operands{lead};
    std::vector<Type> types{current->type().withShape(withLead)};
    std::vector<ir::NamedAttribute> attrs{namedAttr("all_gather_dim", i64Attr(0))};
    for (auto& a : b.collectiveAttrs(m_layouts.groupsMatrix(groups), /*globalIds=*/true))
      attrs.push_back(std::move(a));
    Value* gathered =
        b.create("stablehlo.all_gather", operands, types, std::move(attrs))->result(0);
    logOp(gathered, op, "gathers every dimension at once");
    std::vector<int64_t> split(groupSizes.begin(), groupSizes.end());
    split.insert(split.end(), localShape.begin(), localShape.end());
    Value* pieces = b.reshape(gathered, current->type().withShape(split));
    std::vector<int64_t> perm;
    size_t g = gatheredDims.size();
    for (size_t d = 0; d < rank; ++d) {
      auto it = std::find(gatheredDims.begin(), gatheredDims.end(), d);
      if (it != gatheredDims.end())
        perm.push_back(static_cast<int64_t>(it - gatheredDims.begin()));
      perm.push_back(static_cast<int64_t>(g + d));
    }
    std::vector<int64_t> gatheredShape(localShape.begin(), localShape.end());
    for (size_t i = 0; i < gatheredDims.size(); ++i)
      gatheredShape[gatheredDims[i]] *= groupSizes[i];
    current = b.reshape(b.transpose(pieces, perm), current->type().withShape(gatheredShape));
    current = dropPadding(b, current, resultType);
  }
  std::vector<Value*> with{current};
  replace(op, with);
  return true;
}

bool Converter::lowerAllReduce(Operation& op) {
  const auto* axes = op.attr("reduction_axes").as<ir::AxisRefListAttr>();
  const ir::Mesh* mesh = shardedMesh(op.result(0));
  if (!axes || !mesh)
    return true;
  Value* input = op.operand(0);
  if (axes->axes.empty()) {
    std::vector<Value*> with{input};
    replace(op, with);
    return true;
  }
  HloBuilder b = builder(op);
  std::vector<Value*> operands{input};
  std::vector<Type> types{op.result(0)->type()};
  Operation* reduce =
      b.create("stablehlo.all_reduce", operands, types,
               b.collectiveAttrs(m_layouts.groupsMatrix(m_layouts.groupsAlong(*mesh, axes->axes)),
                                 /*globalIds=*/true));
  b.addReductionRegion(*reduce, input->type().elementType(), reductionOp(op));
  logOp(reduce->result(0), op, "reduces partial values over the reduction axes");
  std::vector<Value*> with{reduce->result(0)};
  replace(op, with);
  return true;
}

bool Converter::lowerReduceScatter(Operation& op) {
  const auto* axes = op.attr("reduce_scatter_axes").as<ir::AxisRefListListAttr>();
  const ir::Mesh* mesh = shardedMesh(op.result(0));
  if (!axes || !mesh)
    return true;
  MeshView view(*mesh);
  HloBuilder b = builder(op);
  Value* current = op.operand(0);
  for (size_t d = 0; d < axes->lists.size(); ++d) {
    if (axes->lists[d].empty())
      continue;
    const std::vector<std::vector<int64_t>>& groups =
        m_layouts.groupsAlong(view.mesh(), axes->lists[d]);
    std::vector<int64_t> shape(current->type().shape().begin(), current->type().shape().end());
    shape[d] /= static_cast<int64_t>(groups.front().size());
    std::vector<Value*> operands{current};
    std::vector<Type> types{current->type().withShape(shape)};
    std::vector<ir::NamedAttribute> attrs{
        namedAttr("scatter_dimension", i64Attr(static_cast<int64_t>(d)))};
    for (auto& a : b.collectiveAttrs(m_layouts.groupsMatrix(groups), /*globalIds=*/true))
      attrs.push_back(std::move(a));
    Operation* rs = b.create("stablehlo.reduce_scatter", operands, types, std::move(attrs));
    b.addReductionRegion(*rs, current->type().elementType(), reductionOp(op));
    current = rs->result(0);
    logOp(current, op, "reduces and scatters dimension " + std::to_string(d));
  }
  std::vector<Value*> with{current};
  replace(op, with);
  return true;
}

bool Converter::lowerAllToAll(Operation& op) {
  if (needsReplication(op)) {
    lowerViaReplication(op);
    return true;
  }
  const auto* params = op.attr("params").as<ir::AllToAllParamsAttr>();
  const ir::Mesh* mesh = shardedMesh(op.operand(0));
  if (!params || !mesh)
    return true;
  MeshView view(*mesh);
  HloBuilder b = builder(op);
  Value* current = op.operand(0);
  for (const ir::AllToAllParam& p : params->params) {
    const std::vector<std::vector<int64_t>>& groups = m_layouts.groupsAlong(view.mesh(), p.axes);
    int64_t n = static_cast<int64_t>(groups.front().size());
    std::vector<int64_t> shape(current->type().shape().begin(), current->type().shape().end());
    shape[static_cast<size_t>(p.tgtDim)] /= n;
    shape[static_cast<size_t>(p.srcDim)] *= n;
    std::vector<Value*> operands{current};
    std::vector<Type> types{current->type().withShape(shape)};
    std::vector<ir::NamedAttribute> attrs{namedAttr("split_dimension", i64Attr(p.tgtDim)),
                                          namedAttr("concat_dimension", i64Attr(p.srcDim)),
                                          namedAttr("split_count", i64Attr(n))};
    for (auto& a : b.collectiveAttrs(m_layouts.groupsMatrix(groups), /*globalIds=*/false))
      attrs.push_back(std::move(a));
    current = b.create("stablehlo.all_to_all", operands, types, std::move(attrs))->result(0);
    logOp(current, op,
          "moves the axes from dimension " + std::to_string(p.srcDim) + " to " +
              std::to_string(p.tgtDim));
  }
  std::vector<Value*> with{current};
  replace(op, with);
  return true;
}

bool Converter::lowerCollectivePermute(Operation& op) {
  auto inLayout = layoutOf(op.operand(0));
  auto outLayout = layoutOf(op.result(0));
  if (!inLayout || !outLayout)
    return true;
  // Each device receives its output block from a device holding it in the input: itself when
  // it can (a self loop), else the first holder not already sending.
  const std::vector<sharding::DeviceBlock>& inBlocks = m_layouts.blocks(*inLayout);
  std::vector<std::vector<int64_t>> pairs;
  std::vector<int64_t> usedSources;
  for (const sharding::DeviceBlock& target : m_layouts.blocks(*outLayout)) {
    std::optional<int64_t> source;
    for (const sharding::DeviceBlock& holder : inBlocks)
      if (holder.ranges == target.ranges && holder.deviceId == target.deviceId)
        source = holder.deviceId;
    if (!source)
      for (const sharding::DeviceBlock& holder : inBlocks)
        if (holder.ranges == target.ranges && std::find(usedSources.begin(), usedSources.end(),
                                                        holder.deviceId) == usedSources.end()) {
          source = holder.deviceId;
          break;
        }
    if (!source) {
      // Not a permutation of whole blocks (the shardings differ in more than device order).
      lowerViaReplication(op);
      return true;
    }
    usedSources.push_back(*source);
    pairs.push_back({*source, target.deviceId});
  }
  HloBuilder b = builder(op);
  std::vector<Value*> operands{op.operand(0)};
  std::vector<Type> types{op.result(0)->type()};
  std::vector<ir::NamedAttribute> attrs{namedAttr("source_target_pairs", detail::i64Matrix(pairs))};
  if (!m_model.usesReplicas())
    attrs.push_back(namedAttr("channel_handle", b.channelHandle()));
  Value* out =
      b.create("stablehlo.collective_permute", operands, types, std::move(attrs))->result(0);
  logOp(out, op, "sends each block to the device that holds it after the permutation");
  std::vector<Value*> with{out};
  replace(op, with);
  return true;
}

bool Converter::lowerAllSlice(Operation& op) {
  if (needsReplication(op)) {
    lowerViaReplication(op);
    return true;
  }
  auto outLayout = layoutOf(op.result(0));
  if (!outLayout)
    return true;
  auto inLayout = layoutOf(op.operand(0));
  HloBuilder b = builder(op);
  std::span<const int64_t> outLocal = op.result(0)->type().shape();
  std::span<const int64_t> inLocal = op.operand(0)->type().shape();
  std::vector<Value*> starts;
  for (size_t d = 0; d < outLocal.size(); ++d) {
    int64_t size = outLocal[d];
    // The device's offset inside its input block: its output block start minus its input block
    // start (the sliced axes are minor to the input's).
    starts.push_back(b.lookup(table(*outLayout, [&](const sharding::DeviceBlock& blk) {
      int64_t inStart = 0;
      if (inLayout)
        if (const sharding::DeviceBlock* inBlock = m_layouts.blockOf(*inLayout, blk.deviceId))
          inStart = inBlock->shardIndex[d] * inLocal[d];
      return blk.shardIndex[d] * size - inStart;
    })));
  }
  std::vector<int64_t> sizes(outLocal.begin(), outLocal.end());
  // A dynamic slice clamps its start, so a non-divisible dimension is first padded to whole
  // blocks (the last device's block is padding).
  Value* input = op.operand(0);
  std::vector<int64_t> high(outLocal.size(), 0);
  bool padded = false;
  for (size_t d = 0; d < outLocal.size(); ++d) {
    // Pieces per input block: the size of the sliced axes of this dimension.
    int64_t inShards = inLayout ? std::max<int64_t>(inLayout->shardsPerDim()[d], 1) : 1;
    int64_t need = outLocal[d] * (outLayout->shardsPerDim()[d] / inShards);
    high[d] = std::max<int64_t>(0, need - inLocal[d]);
    padded = padded || high[d] > 0;
  }
  if (padded)
    input = b.pad(input, b.zeros(Type::tensor({}, input->type().elementType())),
                  std::vector<int64_t>(outLocal.size(), 0), high,
                  std::vector<int64_t>(outLocal.size(), 0));
  Value* out = b.dynamicSlice(input, starts, sizes);
  logOp(out, op, "each device keeps its slice along the sliced axes");
  std::vector<Value*> with{out};
  replace(op, with);
  return true;
}

// Replicated to unreduced over `axes`: the devices at index 0 along the axes keep the value, the
// others hold zeros, so that the sum over the axes is the value.
bool Converter::lowerReplicatedToUnreduced(Operation& op) {
  const auto* axes = op.attr("axes").as<ir::AxisRefListAttr>();
  const GlobalInfo* out = info(op.result(0));
  if (!axes || !out || !out->sharding || !meshOf(*out->sharding))
    return true;
  MeshView view(*meshOf(*out->sharding));
  std::vector<int64_t> isFirst(1, 0);
  for (int64_t p = 0; p < view.totalSize(); ++p) {
    int64_t id = view.deviceIdAt(p);
    if (static_cast<int64_t>(isFirst.size()) <= id)
      isFirst.resize(static_cast<size_t>(id + 1), 0);
    isFirst[static_cast<size_t>(id)] = detail::indexAlongAxes(view, axes->axes, p) == 0;
  }
  HloBuilder b = builder(op);
  Value* input = op.operand(0);
  Value* keep = b.compare("EQ", b.lookup(isFirst), b.scalarI64(1));
  Type pred = Type::tensor(input->type().shape(), ir::ElementType::I1);
  Value* outValue = b.select(b.broadcast(keep, pred, {}), input, b.zeros(input->type()));
  logOp(outValue, op, "devices past the first along the axes hold zeros");
  std::vector<Value*> with{outValue};
  replace(op, with);
  return true;
}

// Sharded to unreduced: each device writes its block into zeros of the (less sharded) result
// block, so that the sum over the axes is the value.
bool Converter::lowerShardedToUnreduced(Operation& op) {
  auto inLayout = layoutOf(op.operand(0));
  auto outLayout = layoutOf(op.result(0));
  if (!inLayout)
    return true;
  HloBuilder b = builder(op);
  Value* input = op.operand(0);
  std::span<const int64_t> inLocal = input->type().shape();
  std::span<const int64_t> outLocal = op.result(0)->type().shape();
  size_t rank = inLocal.size();
  std::vector<std::vector<int64_t>> offsets(rank);
  std::vector<int64_t> target(outLocal.begin(), outLocal.end());
  for (size_t d = 0; d < rank; ++d) {
    offsets[d] = table(*inLayout, [&](const sharding::DeviceBlock& blk) {
      int64_t outStart = 0;
      if (outLayout)
        if (const sharding::DeviceBlock* o = m_layouts.blockOf(*outLayout, blk.deviceId))
          outStart = o->shardIndex[d] * outLocal[d];
      return blk.shardIndex[d] * inLocal[d] - outStart;
    });
    // Room for the padding of the last block, cut off below.
    for (int64_t v : offsets[d])
      target[d] = std::max(target[d], v + inLocal[d]);
  }
  Value* zeros = b.zeros(input->type().withShape(target));
  std::vector<Value*> operands{zeros, input};
  for (size_t d = 0; d < rank; ++d)
    operands.push_back(b.lookup(offsets[d]));
  Value* written = b.create1("stablehlo.dynamic_update_slice", operands, zeros->type());
  logOp(written, op, "each device places its block among zeros");
  if (!sameShape(target, outLocal)) {
    std::vector<int64_t> begin(rank, 0);
    written = b.slice(written, begin, {outLocal.begin(), outLocal.end()});
  }
  std::vector<Value*> with{written};
  replace(op, with);
  return true;
}

} // namespace

bool convertGlobalToLocal(ir::Module& module, const ConvertGlobalToLocalOptions& options,
                          support::DiagnosticSink& sink, std::vector<LoweredCollective>* log) {
  Converter converter(module, options, sink, log);
  converter.startChannelsAfter(detail::nextChannelHandle(module));
  return converter.run();
}

} // namespace shardscope::partition
