#include "core/sharding/value_sharding.h"

#include "core/ir/attribute.h"
#include "core/ir/module.h"

#include <algorithm>
#include <string_view>

namespace shardscope::sharding {

using ir::AxisRef;
using ir::Operation;
using ir::TensorSharding;

namespace {

const TensorSharding* shardingAt(const Operation& op, std::string_view attr, unsigned i) {
  const auto* list = op.attr(attr).as<ir::ShardingPerValueAttr>();
  if (!list || i >= list->shardings.size())
    return nullptr;
  return &list->shardings[i];
}

const TensorSharding* shardingOfResult(const ir::Value& value, const Operation& def) {
  bool collective = isExplicitCollective(def);
  if (collective || def.is("sdy.reshard") || def.is("sdy.sharding_constraint") ||
      def.is("sdy.data_flow_edge")) {
    const auto* s = def.attr(collective ? "out_sharding" : "sharding").as<ir::ShardingAttr>();
    if (s)
      return &s->sharding;
  }
  if (def.is("sdy.manual_computation") || def.is("sdy.named_computation"))
    return shardingAt(def, "out_shardings", value.index());
  return ir::shardingOf(value);
}

// The op whose region argument `value` is, when it is a manual computation's (whose body sees
// the sharding without the manual axes); null otherwise.
const Operation* manualOwner(const ir::Value& value) {
  if (value.definingOp() || !value.ownerBlock())
    return nullptr;
  const Operation* owner = value.ownerBlock()->parentOp();
  return owner && owner->is("sdy.manual_computation") ? owner : nullptr;
}

} // namespace

std::span<const std::string_view> explicitCollectiveNames() {
  static constexpr std::string_view kNames[] = {
      "sdy.all_gather",     "sdy.all_slice",          "sdy.all_reduce",
      "sdy.reduce_scatter", "sdy.all_to_all",         "sdy.collective_permute",
      "sdy.sharded_to_unreduced", "sdy.replicated_to_unreduced"};
  return kNames;
}

bool isExplicitCollective(const Operation& op) {
  std::span<const std::string_view> names = explicitCollectiveNames();
  return std::find(names.begin(), names.end(), op.name()) != names.end();
}

TensorSharding withoutManualAxes(TensorSharding sharding, const Operation& manual) {
  const auto* manualAxes = manual.attr("manual_axes").as<ir::ManualAxesAttr>();
  if (!manualAxes)
    return sharding;
  auto isManual = [&](const AxisRef& a) {
    return std::find(manualAxes->axes.begin(), manualAxes->axes.end(), a.name) !=
           manualAxes->axes.end();
  };
  for (ir::DimensionSharding& dim : sharding.dims) {
    auto firstFree = std::find_if_not(dim.axes.begin(), dim.axes.end(), isManual);
    dim.axes.erase(dim.axes.begin(), firstFree);
  }
  // Inside the body the manual axes do not exist at all, replicated or unreduced ones included.
  std::erase_if(sharding.replicatedAxes, isManual);
  std::erase_if(sharding.unreducedAxes, isManual);
  return sharding;
}

const TensorSharding* storedSharding(const ir::Value& value) {
  if (const Operation* def = value.definingOp())
    return shardingOfResult(value, *def);
  const Operation* owner = value.ownerBlock() ? value.ownerBlock()->parentOp() : nullptr;
  if (owner && (owner->is("sdy.manual_computation") || owner->is("sdy.named_computation")))
    return shardingAt(*owner, "in_shardings", value.index());
  // A while loop's region arguments are data-flow edges of its results: they share the result
  // shardings kept on the while op.
  if (owner && owner->is("stablehlo.while"))
    return shardingAt(*owner, "sdy.sharding", value.index());
  return ir::shardingOf(value);
}

const TensorSharding* valueShardingRef(const ir::Value& value,
                                       std::optional<TensorSharding>& scratch) {
  const TensorSharding* stored = storedSharding(value);
  if (!stored)
    return nullptr;
  if (const Operation* manual = manualOwner(value)) {
    scratch = withoutManualAxes(*stored, *manual);
    return &*scratch;
  }
  return stored;
}

std::optional<TensorSharding> valueSharding(const ir::Value& value) {
  const TensorSharding* stored = storedSharding(value);
  if (!stored)
    return std::nullopt;
  if (const Operation* manual = manualOwner(value))
    return withoutManualAxes(*stored, *manual);
  return *stored;
}

namespace {

bool isReduction(const Operation& op) {
  return op.is("sdy.all_reduce") || op.is("sdy.reduce_scatter");
}

} // namespace

const TensorSharding* heldShardingRef(const ir::Value& value,
                                      std::optional<TensorSharding>& scratch) {
  for (const ir::Use& use : value.uses())
    if (isReduction(*use.user)) {
      scratch = heldSharding(value);
      return scratch ? &*scratch : nullptr;
    }
  return valueShardingRef(value, scratch);
}

std::optional<ir::TensorSharding> heldSharding(const ir::Value& value) {
  std::optional<ir::TensorSharding> sharding = valueSharding(value);
  for (const ir::Use& use : value.uses()) {
    std::vector<ir::AxisRef> reduced;
    if (const auto* axes = use.user->attr("reduction_axes").as<ir::AxisRefListAttr>();
        axes && use.user->is("sdy.all_reduce"))
      reduced = axes->axes;
    if (const auto* lists = use.user->attr("reduce_scatter_axes").as<ir::AxisRefListListAttr>();
        lists && use.user->is("sdy.reduce_scatter"))
      for (const auto& list : lists->lists)
        reduced.insert(reduced.end(), list.begin(), list.end());
    if (reduced.empty())
      continue;
    if (!sharding) {
      // Replicated on the reduction's mesh.
      const auto* out = use.user->attr("out_sharding").as<ir::ShardingAttr>();
      if (!out || !value.type().isTensor())
        continue;
      sharding = ir::TensorSharding{out->sharding.meshName, out->sharding.inlineMesh,
                                    std::vector<ir::DimensionSharding>(
                                        static_cast<size_t>(value.type().rank())),
                                    {}, {}, {}};
    }
    for (const ir::AxisRef& axis : reduced)
      if (std::find(sharding->unreducedAxes.begin(), sharding->unreducedAxes.end(), axis) ==
          sharding->unreducedAxes.end())
        sharding->unreducedAxes.push_back(axis);
  }
  return sharding;
}

} // namespace shardscope::sharding
