#include "core/exec/process_groups.h"

#include "core/ir/stablehlo_attrs.h"

#include <algorithm>

namespace shardscope::exec {

namespace {

// `channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>`; 0 when absent.
int64_t channelId(const ir::Operation& op) {
  ir::Attribute attr = op.attr("channel_handle");
  if (!attr)
    return 0;
  if (const auto* opaque = attr.as<ir::OpaqueAttr>()) {
    auto fields = ir::stablehlo::parseStablehloStruct(opaque->text, "channel_handle");
    if (fields) {
      auto it = fields->find("handle");
      if (it != fields->end() && !it->second.empty())
        return it->second[0];
    }
  }
  return 0;
}

bool usesPairs(const ir::Operation& op) { return op.is("stablehlo.collective_permute"); }

// The rows of a rank-2 `dense<...>` attribute with -1 padding dropped; an empty list for an
// absent or empty attribute.
CommResult<std::vector<std::vector<int64_t>>> readGroups(const ir::Operation& op,
                                                         std::string_view name) {
  std::vector<std::vector<int64_t>> groups;
  ir::Attribute attr = op.attr(name);
  if (!attr)
    return groups;
  const auto* dense = attr.as<ir::DenseElementsAttr>();
  if (!dense) {
    auto flat = ir::stablehlo::intListAttr(op, name);
    if (!flat)
      return CommResult<std::vector<std::vector<int64_t>>>::failure(
          "'" + std::string(name) + "' must be a dense rank-2 integer attribute");
    if (!flat->empty())
      groups.push_back(*flat);
    return groups;
  }
  std::span<const int64_t> shape = dense->type.shape();
  if (dense->numElements() == 0)
    return groups;
  if (shape.size() != 2)
    return CommResult<std::vector<std::vector<int64_t>>>::failure(
        "'" + std::string(name) + "' must have rank 2, got rank " + std::to_string(shape.size()));
  for (int64_t r = 0; r < shape[0]; ++r) {
    std::vector<int64_t> row;
    for (int64_t c = 0; c < shape[1]; ++c) {
      int64_t id = dense->intAt(dense->isSplat ? 0 : r * shape[1] + c);
      if (id != -1) // -1 pads shorter groups to the rectangular shape
        row.push_back(id);
    }
    groups.push_back(std::move(row));
  }
  return groups;
}

std::string listStr(const std::vector<int64_t>& ids) {
  std::string s = "[";
  for (size_t i = 0; i < ids.size(); ++i)
    s += (i ? ", " : "") + std::to_string(ids[i]);
  return s + "]";
}

} // namespace

bool isCollectiveOp(std::string_view name) {
  static constexpr std::string_view kCollectives[] = {
      "stablehlo.all_reduce",    "stablehlo.all_gather",         "stablehlo.reduce_scatter",
      "stablehlo.all_to_all",    "stablehlo.collective_permute", "stablehlo.collective_broadcast",
      "stablehlo.collective_reduce",
      "sdy.all_gather",          "sdy.all_reduce",               "sdy.all_slice",
      "sdy.all_to_all",          "sdy.collective_permute",       "sdy.reduce_scatter"};
  return std::find(std::begin(kCollectives), std::end(kCollectives), name) !=
         std::end(kCollectives);
}

GroupMode groupMode(const ir::Operation& op) {
  bool channel = channelId(op) > 0;
  if (op.is("stablehlo.all_to_all") || op.is("stablehlo.collective_permute") ||
      op.is("stablehlo.collective_broadcast"))
    return channel ? GroupMode::CrossPartition : GroupMode::CrossReplica;
  bool global = ir::stablehlo::boolAttr(op, "use_global_device_ids").value_or(false) ||
                static_cast<bool>(op.attr("use_global_device_ids").as<ir::UnitAttr>());
  if (!channel)
    return GroupMode::CrossReplica;
  return global ? GroupMode::FlattenedIds : GroupMode::CrossReplicaAndPartition;
}

CommResult<std::vector<int64_t>> processGroup(const ir::Operation& op, const DeviceContext& ctx) {
  using Result = CommResult<std::vector<int64_t>>;
  GroupMode mode = groupMode(op);
  std::vector<std::vector<int64_t>> groups;
  if (usesPairs(op)) {
    // collective_permute: the process group is every replica (cross_replica) or every partition
    // (cross_partition) sharing this device's other coordinate; the pairs pick senders inside it.
    groups.push_back({});
    int64_t n = mode == GroupMode::CrossReplica ? ctx.numReplicas : ctx.numPartitions;
    for (int64_t i = 0; i < n; ++i)
      groups.back().push_back(i);
  } else {
    auto read = readGroups(op, "replica_groups");
    if (!read)
      return Result::failure(read.error());
    groups = std::move(read.value());
  }
  int64_t limit = mode == GroupMode::CrossPartition ? ctx.numPartitions
                  : mode == GroupMode::FlattenedIds ? ctx.numDevices()
                                                    : ctx.numReplicas;
  if (groups.empty()) {
    // An empty `replica_groups` means one group of every id.
    groups.push_back({});
    for (int64_t i = 0; i < limit; ++i)
      groups.back().push_back(i);
  }
  const std::vector<int64_t>* mine = nullptr;
  int64_t own = mode == GroupMode::CrossPartition ? ctx.partition
                : mode == GroupMode::FlattenedIds ? ctx.device
                                                  : ctx.replica;
  for (const auto& g : groups) {
    for (int64_t id : g) {
      if (id < 0 || id >= limit)
        return Result::failure("id " + std::to_string(id) + " in group " + listStr(g) +
                               " is out of range [0, " + std::to_string(limit) + ")");
      if (id != own)
        continue;
      if (mine)
        return Result::failure("id " + std::to_string(own) + " appears in more than one group");
      mine = &g;
    }
  }
  if (!mine && (op.is("stablehlo.collective_broadcast") || op.is("stablehlo.collective_reduce")))
    return std::vector<int64_t>{}; // the spec gives such devices zeros, without communication
  if (!mine)
    return Result::failure(std::string(mode == GroupMode::CrossPartition ? "partition"
                                       : mode == GroupMode::FlattenedIds ? "device"
                                                                         : "replica") +
                           " " + std::to_string(own) + " is in no group");
  std::vector<int64_t> devices;
  auto id = [&](int64_t replica, int64_t partition) {
    return replica * ctx.numPartitions + partition;
  };
  switch (mode) {
  case GroupMode::CrossReplica:
    for (int64_t r : *mine)
      devices.push_back(id(r, ctx.partition));
    break;
  case GroupMode::CrossPartition:
    for (int64_t p : *mine)
      devices.push_back(id(ctx.replica, p));
    break;
  case GroupMode::CrossReplicaAndPartition:
    // Spec order: partitions outer, the replica group inner.
    for (int64_t p = 0; p < ctx.numPartitions; ++p)
      for (int64_t r : *mine)
        devices.push_back(id(r, p));
    break;
  case GroupMode::FlattenedIds:
    devices = *mine;
    break;
  }
  return devices;
}

} // namespace shardscope::exec
