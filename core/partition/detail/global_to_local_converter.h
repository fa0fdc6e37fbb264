#pragma once
// Internal to core/partition: the state and rewrites of `-sdy-convert-global-to-local`
// (`convertGlobalToLocal`, convert_global_to_local.h). One converter runs over one module; its
// member functions live in several files, by responsibility:
// - convert_global_to_local.cpp: the driver (types, op dispatch, manual computations, signatures);
// - global_to_local_device_ops.cpp: device-dependent StableHLO ops (constant, iota, convolution,
//   dynamic_slice, reverse/reshape checks, gather, scatter);
// - global_to_local_slice_pad.cpp: slices and pads along sharded dimensions (halo exchange);
// - global_to_local_collectives.cpp: Shardy collectives and resharding through the replicated
//   value.
// Not included from outside the module.

#include "core/ir/module.h"
#include "core/ir/stablehlo_attrs.h"
#include "core/partition/convert_global_to_local.h"
#include "core/partition/detail/global_view.h"
#include "core/partition/detail/hlo_builder.h"
#include "core/sharding/sharding_layout.h"
#include "core/support/diagnostic.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shardscope::partition::detail {

// Along one sharded dimension of a slice or pad (global_to_local_slice_pad.cpp).
struct HaloDim;
// What the gather rewrite works from (global_to_local_device_ops.cpp).
struct GatherMasking;

/// Rewrites every function of a module from the global view to the per-device program (see
/// `convertGlobalToLocal`). `run` once per converter.
class GlobalToLocalConverter {
public:
  GlobalToLocalConverter(ir::Module& module, const ConvertGlobalToLocalOptions& options,
                         support::DiagnosticSink& sink, std::vector<LoweredCollective>* log,
                         std::vector<StandIn>* standIns)
      : m_module(module), m_options(options), m_sink(sink), m_log(log), m_standIns(standIns) {
    m_model.replicaCount = options.replicaCount;
    m_model.partitionCount = options.partitionCount;
  }

  /// Converts every function with a body; returns false when some op couldn't be (after
  /// reporting it to the sink).
  bool run();
  /// The first `channel_handle` the inserted collectives use (`nextChannelHandle(module)`).
  void startChannelsAfter(int64_t next) { m_nextChannel = next; }

private:
  // --- The driver (convert_global_to_local.cpp) ---
  void recordValue(ir::Value* value);
  void localizeTypes(ir::Operation& fn);
  bool rewrite(ir::Operation& op);
  void inlineManualComputation(ir::Operation& op);
  void updateSignature(ir::Operation& fn);
  // Returns true when two layouts (nothing: replicated) give every device the same block.
  bool sameLayout(const sharding::ShardingLayout* a, const sharding::ShardingLayout* b);
  void replace(ir::Operation& op, std::span<ir::Value* const> with);
  void forget(ir::Operation& op);

  const GlobalInfo* info(const ir::Value* value) const { return m_global.find(value); }
  ir::Type globalType(const ir::Value* value) const {
    const GlobalInfo* i = info(value);
    return i ? i->type : value->type();
  }
  // The layout of `value`'s global view (null: none, i.e. replicated or not a static tensor).
  const sharding::ShardingLayout* layoutOf(const ir::Value* value) {
    const GlobalInfo* i = info(value);
    return i ? m_layouts.layoutOf(*i, m_module) : nullptr;
  }
  const ir::Mesh* meshOf(const ir::TensorSharding& sharding) const {
    return ir::resolveMesh(m_module, sharding);
  }
  // The mesh of `value`'s global sharding; null when it has none (collectives on such values are
  // left alone).
  const ir::Mesh* shardedMesh(const ir::Value* value) const {
    const GlobalInfo* i = info(value);
    return i && i->sharding ? meshOf(*i->sharding) : nullptr;
  }
  HloBuilder builder(ir::Operation& before) { return HloBuilder(before, m_model, &m_nextChannel); }
  // Per-device table (indexed by device id) of `fn(block)` over the blocks of `layout`.
  template <typename Fn>
  std::vector<int64_t> table(const sharding::ShardingLayout& layout, Fn&& fn) {
    const std::vector<sharding::DeviceBlock>& blocks = m_layouts.blocks(layout);
    int64_t maxId = 0;
    for (const auto& b : blocks)
      maxId = std::max(maxId, b.deviceId);
    std::vector<int64_t> values(static_cast<size_t>(maxId + 1), 0);
    for (const auto& b : blocks)
      values[static_cast<size_t>(b.deviceId)] = fn(b);
    return values;
  }
  // Per-device table of the start of each device's block along `d`, whose blocks are `size`
  // long.
  std::vector<int64_t> blockStarts(const sharding::ShardingLayout& layout, size_t d, int64_t size) {
    return table(layout,
                 [&](const sharding::DeviceBlock& blk) { return blk.shardIndex[d] * size; });
  }
  void logOp(const ir::Value* value, const ir::Operation& source, std::string reason) {
    if (m_log && value && value->definingOp())
      m_log->push_back(
          {value->definingOp(), std::string(source.name()), source.loc(), std::move(reason)});
  }

  // --- Device-dependent StableHLO ops (global_to_local_device_ops.cpp) ---
  bool rewriteConstant(ir::Operation& op);
  bool rewriteIota(ir::Operation& op);
  bool rewriteConvolution(ir::Operation& op);
  bool rewriteDynamicSlice(ir::Operation& op);
  bool checkLocal(ir::Operation& op);
  bool rewriteGather(ir::Operation& op);
  // Shifts and clamps the indices of the gather `op` into the device's block of its operand;
  // returns the predicate of the rows whose index lies inside it.
  ir::Value* shiftGatherIndices(ir::Operation& op, const GatherMasking& g);
  // Zeroes the rows of the gather `op`'s result where `valid` is false.
  void maskGatherResult(ir::Operation& op, const ir::stablehlo::GatherScatterDimensionNumbers& dims,
                        ir::Value* valid);
  bool rewriteScatter(ir::Operation& op);
  void shiftScatterIndices(ir::Operation& op, HloBuilder& b,
                           const ir::stablehlo::GatherScatterDimensionNumbers& dims);
  void countScatterOperandOnce(ir::Operation& op, HloBuilder& b,
                               const ir::stablehlo::GatherScatterDimensionNumbers& dims);

  // --- Slices and pads along sharded dimensions (global_to_local_slice_pad.cpp) ---
  bool rewriteSlice(ir::Operation& op);
  bool rewritePad(ir::Operation& op);
  // A slice's start / limit / strides, or a pad's low / high / interior padding.
  using IntLists = std::array<std::vector<int64_t>, 3>;
  // The per-device value of a slice or pad `op` with attributes `lists` along the dimensions
  // `sharded` (and, with a static op, along the others).
  using HaloRewrite = ir::Value* (GlobalToLocalConverter::*)(ir::Operation& op,
                                                             const IntLists& lists,
                                                             std::span<const size_t> sharded);
  // Reads the integer-list attributes `names` of the slice or pad `op` and, when it shards a
  // dimension, replaces it with the value `rewrite` builds. Returns false after reporting an op
  // that changes the sharding of a dimension.
  bool rewriteHalo(ir::Operation& op, const std::array<std::string_view, 3>& names,
                   HaloRewrite rewrite);
  ir::Value* localSlice(ir::Operation& op, const IntLists& bounds, std::span<const size_t> sharded);
  ir::Value* localPad(ir::Operation& op, const IntLists& padding, std::span<const size_t> sharded);
  // The dimensions the slice or pad `op` shards (on its operand or its result); nullopt after
  // reporting one whose sharding the op changes.
  std::optional<std::vector<size_t>> haloDims(const ir::Operation& op);
  // What the device blocks of the slice or pad `op` need along its sharded dimension `d`, where
  // output element `g` reads input element `inputIndex(g)` (-1: padding).
  template <typename InputIndex>
  HaloDim haloDim(const ir::Operation& op, size_t d, InputIndex&& inputIndex);
  // The device's `block` extended along `h`'s dimension by the neighbouring blocks it needs,
  // received with one collective permute per neighbour offset.
  ir::Value* haloWindow(HloBuilder& b, const ir::Operation& op, ir::Value* block, const HaloDim& h);

  // --- Shardy collectives (global_to_local_collectives.cpp) ---
  bool lowerAllGather(ir::Operation& op);
  // One `stablehlo.all_gather` of `value` along dimension `d` over `groups`.
  ir::Value* allGatherAlong(HloBuilder& b, ir::Value* value, size_t d,
                            const std::vector<std::vector<int64_t>>& groups);
  // One all-gather over the axes of every dimension in `dims` along a new leading dimension, with
  // the reshapes and transpose that put the pieces in place.
  ir::Value* combinedAllGather(HloBuilder& b, ir::Operation& op, std::span<const size_t> dims);
  bool needsReplication(const ir::Operation& op);
  void lowerViaReplication(ir::Operation& op);
  // `input` (local, laid out by `inSharding`) laid out by `outLayout` instead: gathered whole,
  // then each device's block cut out. Returns the new local value.
  ir::Value* reshardLocal(ir::Operation& before, ir::Value* input,
                          const ir::TensorSharding* inSharding, ir::Type global,
                          const sharding::ShardingLayout* outLayout, const ir::Operation& source);
  bool lowerAllReduce(ir::Operation& op);
  bool lowerReduceScatter(ir::Operation& op);
  bool lowerAllToAll(ir::Operation& op);
  bool lowerCollectivePermute(ir::Operation& op);
  bool lowerAllSlice(ir::Operation& op);
  bool lowerReplicatedToUnreduced(ir::Operation& op);
  bool lowerShardedToUnreduced(ir::Operation& op);

  ir::Module& m_module;
  const ConvertGlobalToLocalOptions& m_options;
  support::DiagnosticSink& m_sink;
  std::vector<LoweredCollective>* m_log;
  std::vector<StandIn>* m_standIns;
  DeviceModel m_model;
  int64_t m_nextChannel = 1;
  GlobalTable m_global;
  LayoutCache m_layouts;
  ShardingPool m_shardings;
  bool m_ok = true;
};

} // namespace shardscope::partition::detail
