#include "core/analysis/collective_cost.h"

#include "core/analysis/collective_rules.h"
#include "core/analysis/manual_computation.h"
#include "core/analysis/replica_groups.h"
#include "core/sharding/axis_refs.h"
#include "core/sharding/mesh_view.h"
#include "core/sharding/sharding_layout.h"
#include "core/sharding/value_sharding.h"

#include <algorithm>

namespace shardscope::analysis {

namespace {

int64_t elementBytes(ir::ElementType element) {
  int bits = ir::elementBitWidth(element);
  return bits < 8 ? 1 : bits / 8;
}

// Bytes of a static tensor type, or nothing.
std::optional<int64_t> tensorBytes(ir::Type type) {
  if (!type.isTensor() || !type.hasStaticShape())
    return std::nullopt;
  return type.numElements() * elementBytes(type.elementType());
}

// Bytes of one device's block of a global tensor `type` laid out by `sharding`.
std::optional<int64_t> localBytes(const ir::Module& module, ir::Type type,
                                  const ir::TensorSharding* sharding) {
  std::optional<int64_t> global = tensorBytes(type);
  if (!global || !sharding)
    return global;
  const ir::Mesh* mesh = ir::resolveMesh(module, *sharding);
  if (!mesh)
    return global;
  auto layout = sharding::ShardingLayout::create(*sharding, *mesh, type.shape());
  if (!layout)
    return global;
  int64_t count = 1;
  for (int64_t d : layout->localShape())
    count *= d;
  return count * elementBytes(type.elementType());
}

std::string axisName(const ir::AxisRef& axis) {
  return axis.subAxis ? sharding::axisRefString(axis) : axis.name;
}

// One axis a collective runs along, with its size.
struct Step {
  std::string axis;
  int64_t size = 1;
};

// Ring model over `steps`, major to minor, for a device with `bytes` of operand.
void applyRing(CollectiveCost& cost, const std::vector<Step>& steps, int64_t bytes) {
  int64_t total = 0;
  int64_t current = bytes;
  for (const Step& step : steps) {
    int64_t sent = 0;
    if (cost.kind == "all_gather") {
      sent = (step.size - 1) * current; // every other block of the group so far passes by
      current *= step.size;
    } else if (cost.kind == "reduce_scatter" || cost.kind == "all_reduce") {
      // Multiply before dividing: a scalar reduced over 8 devices still moves 7/8 of its bytes.
      int64_t rounds = cost.kind == "all_reduce" ? 2 : 1; // reduce-scatter, then all-gather
      sent = rounds * current * (step.size - 1) / step.size;
      current /= step.size;
    } else if (cost.kind == "all_to_all") {
      sent = bytes * (step.size - 1) / step.size;
    }
    cost.perAxis.push_back({step.axis, sent});
    total += sent;
  }
  cost.bytesSent = total;
  cost.bytesReceived = total;
}

std::vector<Step> stepsOf(const sharding::MeshView& mesh, const std::vector<ir::AxisRef>& axes) {
  std::vector<Step> steps;
  for (const ir::AxisRef& axis : axes)
    steps.push_back({axisName(axis), mesh.sizeOf(axis)});
  return steps;
}

std::optional<CollectiveCost> sdyCost(const ir::Module& module, const ir::Operation& op) {
  const auto* out = op.attr("out_sharding").as<ir::ShardingAttr>();
  if (!out || op.numOperands() != 1 || op.numResults() != 1)
    return std::nullopt;
  const ir::Mesh* meshPtr = ir::resolveMesh(module, out->sharding);
  if (!meshPtr)
    return std::nullopt;
  sharding::MeshView mesh(*meshPtr);
  std::optional<ir::TensorSharding> scratch;
  const ir::TensorSharding* from = sharding::valueShardingRef(*op.operand(0), scratch);
  std::optional<int64_t> in = localBytes(module, op.operand(0)->type(), from);
  std::optional<int64_t> outBytes = localBytes(module, op.result(0)->type(), &out->sharding);
  if (!in || !outBytes)
    return std::nullopt;

  CollectiveCost cost;
  cost.op = &op;
  cost.kind = std::string(op.name().substr(4)); // drop "sdy."
  cost.operandBytes = *in;
  cost.resultBytes = *outBytes;
  std::vector<ir::AxisRef> axes;
  auto appendLists = [&](std::string_view attr) {
    if (const auto* lists = op.attr(attr).as<ir::AxisRefListListAttr>())
      for (const auto& list : lists->lists)
        axes.insert(axes.end(), list.begin(), list.end());
  };
  if (op.is("sdy.all_gather"))
    appendLists("gathering_axes");
  else if (op.is("sdy.all_slice"))
    appendLists("slicing_axes");
  else if (op.is("sdy.reduce_scatter"))
    appendLists("reduce_scatter_axes");
  else if (op.is("sdy.all_reduce")) {
    if (const auto* list = op.attr("reduction_axes").as<ir::AxisRefListAttr>())
      axes = list->axes;
  } else if (op.is("sdy.all_to_all")) {
    if (const auto* params = op.attr("params").as<ir::AllToAllParamsAttr>())
      for (const auto& param : params->params)
        axes.insert(axes.end(), param.axes.begin(), param.axes.end());
  }
  int64_t groupSize = 1;
  for (const ir::AxisRef& axis : axes) {
    groupSize *= mesh.sizeOf(axis);
    cost.axes.push_back(axisName(axis));
    cost.axisRefs.push_back(axis);
  }
  cost.groupSize = groupSize;
  cost.numGroups = std::max<int64_t>(1, mesh.totalSize() / std::max<int64_t>(groupSize, 1));

  if (op.is("sdy.all_slice")) {
    for (const auto& axis : cost.axes)
      cost.perAxis.push_back({axis, 0});
    return cost;
  }
  if (op.is("sdy.collective_permute")) {
    // Every device sends its block to the device that holds it under the new sharding; the
    // device itself when nothing moves.
    cost.groupSize = mesh.totalSize();
    cost.numGroups = 1;
    bool moves = !from || from->dims != out->sharding.dims || from->meshName != out->sharding.meshName;
    cost.bytesSent = moves ? *in : 0;
    cost.bytesReceived = cost.bytesSent;
    if (from)
      for (size_t d = 0; d < from->dims.size() && d < out->sharding.dims.size(); ++d)
        for (const ir::AxisRef& axis : out->sharding.dims[d].axes)
          if (std::find(from->dims[d].axes.begin(), from->dims[d].axes.end(), axis) ==
              from->dims[d].axes.end()) {
            cost.axes.push_back(axisName(axis));
            cost.axisRefs.push_back(axis);
          }
    cost.perAxis.push_back({cost.axes.empty() ? "(groups)" : cost.axes.front(), cost.bytesSent});
    return cost;
  }
  applyRing(cost, stepsOf(mesh, axes), *in);
  return cost;
}

// StableHLO collectives: local types already; groups from replica_groups / source_target_pairs.
std::optional<CollectiveCost> stablehloCost(const ir::Module& module, const ir::Operation& op) {
  if (op.numOperands() == 0 || op.numResults() == 0)
    return std::nullopt;
  int64_t in = 0, out = 0;
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    std::optional<int64_t> bytes = tensorBytes(op.operand(i)->type());
    if (!bytes)
      return std::nullopt;
    in += *bytes;
  }
  for (unsigned i = 0; i < op.numResults(); ++i) {
    std::optional<int64_t> bytes = tensorBytes(op.result(i)->type());
    if (!bytes)
      return std::nullopt;
    out += *bytes;
  }
  CollectiveCost cost;
  cost.op = &op;
  cost.kind = std::string(op.name().substr(10)); // drop "stablehlo."
  cost.operandBytes = in;
  cost.resultBytes = out;

  // The mesh axes, when the op sits in a manual computation whose mesh its groups match.
  std::vector<Step> steps;
  if (const ir::Operation* manual = enclosingManualComputation(op)) {
    ManualComputationView view = viewManualComputation(module, *manual);
    if (std::optional<CollectiveKind> kind = collectiveKind(op); kind && view.mesh.mesh) {
      AxesMatch match = collectiveAxes(op, *kind, view.mesh, view.scopeAxes());
      if (match.matched) {
        sharding::MeshView mesh(*view.mesh.mesh);
        for (const std::string& axis : match.axes) {
          steps.push_back({axis, mesh.axisSize(axis)});
          cost.axes.push_back(axis);
          cost.axisRefs.push_back({axis, std::nullopt});
        }
      } else {
        cost.note = match.problem;
      }
    }
  }

  if (op.is("stablehlo.collective_permute")) {
    int64_t moving = 0, pairs = 0;
    if (const auto* dense = op.attr("source_target_pairs").as<ir::DenseElementsAttr>())
      if (auto rows = denseDeviceGroups(*dense)) {
        pairs = static_cast<int64_t>(rows->size());
        for (const auto& row : *rows)
          if (row.size() == 2 && row[0] != row[1])
            ++moving;
      }
    cost.groupSize = 2;
    cost.numGroups = pairs;
    cost.bytesSent = moving ? in : 0;
    cost.bytesReceived = cost.bytesSent;
    cost.perAxis.push_back({steps.empty() ? "(groups)" : steps.front().axis, cost.bytesSent});
    return cost;
  }

  int64_t groupSize = 0, numGroups = 0;
  if (const auto* dense = op.attr("replica_groups").as<ir::DenseElementsAttr>())
    if (auto rows = denseDeviceGroups(*dense)) {
      numGroups = static_cast<int64_t>(rows->size());
      for (const auto& row : *rows)
        groupSize = std::max<int64_t>(groupSize, static_cast<int64_t>(row.size()));
    }
  if (groupSize == 0 && !steps.empty()) {
    groupSize = 1;
    for (const Step& step : steps)
      groupSize *= step.size;
  }
  if (groupSize == 0) {
    // No groups at all means every device; from the types alone only all_gather and
    // reduce_scatter tell how many.
    if (op.is("stablehlo.all_gather") && in > 0)
      groupSize = out / in;
    else if (op.is("stablehlo.reduce_scatter") && out > 0)
      groupSize = in / out;
    else
      groupSize = 1;
    cost.note = "no replica groups: one group of every device";
  }
  cost.groupSize = groupSize;
  cost.numGroups = std::max<int64_t>(numGroups, 1);
  if (op.is("stablehlo.collective_broadcast")) {
    cost.bytesSent = groupSize > 1 ? in : 0;
    cost.bytesReceived = cost.bytesSent;
    cost.perAxis.push_back({steps.empty() ? "(groups)" : steps.front().axis, cost.bytesSent});
    return cost;
  }
  if (steps.empty())
    steps.push_back({"(groups)", groupSize});
  applyRing(cost, steps, in);
  return cost;
}

} // namespace

bool isCostedCollective(const ir::Operation& op) {
  if (sharding::isExplicitCollective(op))
    return true;
  static constexpr std::string_view kStablehlo[] = {
      "stablehlo.all_reduce",   "stablehlo.all_gather",         "stablehlo.reduce_scatter",
      "stablehlo.all_to_all",   "stablehlo.collective_permute", "stablehlo.collective_broadcast"};
  return std::find(std::begin(kStablehlo), std::end(kStablehlo), op.name()) != std::end(kStablehlo);
}

std::optional<CollectiveCost> collectiveCost(const ir::Module& module, const ir::Operation& op) {
  if (!isCostedCollective(op))
    return std::nullopt;
  return op.name().starts_with("sdy.") ? sdyCost(module, op) : stablehloCost(module, op);
}

CostSummary collectiveCosts(const ir::Module& module) {
  CostSummary summary;
  module.op().walk([&](const ir::Operation& op) {
    std::optional<CollectiveCost> cost = collectiveCost(module, op);
    if (!cost)
      return;
    summary.totalBytesSent += cost->bytesSent;
    for (const AxisTraffic& traffic : cost->perAxis) {
      auto it = std::find_if(summary.perAxis.begin(), summary.perAxis.end(),
                             [&](const AxisTraffic& t) { return t.axis == traffic.axis; });
      if (it == summary.perAxis.end())
        summary.perAxis.push_back(traffic);
      else
        it->bytesSent += traffic.bytesSent;
    }
    summary.collectives.push_back(std::move(*cost));
  });
  return summary;
}

} // namespace shardscope::analysis
