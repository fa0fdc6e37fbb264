#include "core/propagation/propagate_priorities.h"

#include "core/propagation/import_data_flow.h"
#include "core/propagation/propagate_aggressive.h"
#include "core/sharding/axis_refs.h"

#include <algorithm>
#include <map>

namespace shardscope::propagation {

using ir::Operation;
using ir::TensorSharding;

// --- Op priorities ------------------------------------------------------------------------------

Direction unionOf(Direction a, Direction b) {
  if (a == b || b == Direction::None)
    return a;
  if (a == Direction::None)
    return b;
  return Direction::Both;
}

Direction intersectionOf(Direction a, Direction b) {
  if (a == b || b == Direction::Both)
    return a;
  if (a == Direction::Both)
    return b;
  return Direction::None;
}

namespace {

// Ops whose operands have other uses don't propagate in the first round: forward it would give
// each use the same conflict, backward it could conflict with the other uses.
Direction directionBasedOnUses(const Operation& op, bool allowMultiUse) {
  if (allowMultiUse)
    return Direction::Both;
  for (const ir::Value* operand : op.operands()) {
    bool scalar = operand->type().isTensor() && operand->type().rank() == 0;
    if (operand->uses().size() != 1 && !scalar)
      return Direction::None;
  }
  return Direction::Both;
}

bool isOffloadCustomCall(const Operation& op) {
  if (!op.is("stablehlo.custom_call"))
    return false;
  const auto* target = op.attr("call_target_name").as<ir::StringAttr>();
  return target && (target->value == "MoveToDevice" || target->value == "MoveToHost");
}

// How rounds 0 and 1 treat an op: ops that pass shardings through unchanged, and dynamic slices,
// which only pass them forward.
enum class PassThrough { No, Both, ForwardOnly };

PassThrough passThroughKind(const Operation& op) {
  if (isElementwise(op) || isOffloadCustomCall(op) || op.is("stablehlo.reshape") ||
      op.is("stablehlo.transpose") || op.is("sdy.data_flow_edge"))
    return PassThrough::Both;
  if (op.is("stablehlo.dynamic_slice") || op.is("stablehlo.dynamic_update_slice"))
    return PassThrough::ForwardOnly;
  return PassThrough::No;
}

bool isPassThroughFactor(const ir::OpShardingRule& rule, int64_t factor) {
  auto in = [factor](const std::vector<int64_t>& list) {
    return std::find(list.begin(), list.end(), factor) != list.end();
  };
  return !in(rule.reductionFactors) && !in(rule.needReplicationFactors) &&
         !in(rule.permutationFactors);
}

// The heuristics of the schedule for one op, which looks at the op's name once for all rounds
// and factors (the engine asks for every factor of every op once per round).
class OpHeuristics {
public:
  explicit OpHeuristics(const Operation& op)
      : m_op(op), m_passThrough(passThroughKind(op)),
        m_broadcast(op.is("stablehlo.broadcast_in_dim")) {}

  /// The direction heuristic `round` gives along `factor` (`rule` is null for ops propagated
  /// with an identity).
  Direction at(int round, int64_t factor, const ir::OpShardingRule* rule) const {
    switch (round) {
    case 0: // pass-through ops whose operands have no other use
      return passThroughOps(/*allowMultiUse=*/false);
    case 1: // all pass-through ops
      return passThroughOps(/*allowMultiUse=*/true);
    case 2: // pass-through factors of every op, broadcasts only backward
      if (rule && !isPassThroughFactor(*rule, factor))
        return Direction::None;
      return m_broadcast ? Direction::Backward : Direction::Both;
    case 3: // everything but broadcasts forward
      return m_broadcast ? Direction::Backward : Direction::Both;
    default: // everything
      return Direction::Both;
    }
  }

  /// The union of the heuristics of rounds 0 to `round`.
  Direction upTo(int round, int64_t factor, const ir::OpShardingRule* rule) const {
    Direction direction = Direction::None;
    for (int i = 0; i <= round && i < kNumOpPriorities; ++i)
      direction = unionOf(direction, at(i, factor, rule));
    return direction;
  }

private:
  Direction passThroughOps(bool allowMultiUse) const {
    switch (m_passThrough) {
    case PassThrough::Both:
      return directionBasedOnUses(m_op, allowMultiUse);
    case PassThrough::ForwardOnly:
      return intersectionOf(directionBasedOnUses(m_op, allowMultiUse), Direction::Forward);
    case PassThrough::No:
      break;
    }
    return Direction::None;
  }

  const Operation& m_op;
  PassThrough m_passThrough;
  bool m_broadcast;
};

} // namespace

OpDirectionFn opPriorityDirection(int round, OpDirectionFn outer) {
  return [round, outer](const Operation& op, int64_t factor, const ir::OpShardingRule* rule) {
    Direction direction = OpHeuristics(op).upTo(round, factor, rule);
    return outer ? intersectionOf(direction, outer(op, factor, rule)) : direction;
  };
}

OpDirectionsFn opPriorityDirections(int round) {
  return [round](const Operation& op, const ir::OpShardingRule* rule, std::span<Direction> out) {
    OpHeuristics heuristics(op);
    for (size_t f = 0; f < out.size(); ++f)
      out[f] = heuristics.upTo(round, static_cast<int64_t>(f), rule);
  };
}

// --- User priorities ----------------------------------------------------------------------------

namespace {

int64_t priorityOf(const ir::DimensionSharding& dim) { return dim.priority.value_or(0); }

// Every tensor that can hold a sharding, skipping values whose sharding lives on a data-flow
// edge (the edge's own result is visited instead).
std::vector<TensorRef> allTensors(ir::Module& module) {
  std::vector<TensorRef> tensors;
  auto addValue = [&](ir::Value* v) {
    if (!lookupDataFlowEdge(*v))
      tensors.push_back(TensorRef::of(v));
  };
  for (Operation* fn : module.functions()) {
    if (ir::Block* body = ir::func::body(*fn)) {
      for (const auto& arg : body->arguments())
        addValue(arg.get());
      fn->walk([&](Operation& op) {
        if (&op == fn)
          return;
        if ((op.is("sdy.manual_computation") || op.is("sdy.named_computation")) &&
            op.numRegions() == 1 && !op.region(0).empty())
          for (const auto& arg : op.region(0).front().arguments())
            addValue(arg.get());
        for (const auto& result : op.results())
          addValue(result.get());
      });
    }
    size_t numResults = ir::func::type(*fn).results().size();
    for (unsigned i = 0; i < numResults; ++i)
      tensors.push_back({TensorRef::Kind::FuncResult, nullptr, fn, i});
  }
  return tensors;
}

// Keeps the priority-0 dimension shardings (dropping the priority); the others become empty and
// closed, their axes explicitly replicated until their round.
TensorSharding initializedSharding(const TensorSharding& original, const ir::Mesh* mesh) {
  TensorSharding out = original;
  for (ir::DimensionSharding& dim : out.dims) {
    if (priorityOf(dim) != 0)
      out.replicatedAxes.insert(out.replicatedAxes.end(), dim.axes.begin(), dim.axes.end());
    dim = priorityOf(dim) == 0 ? ir::DimensionSharding{dim.axes, dim.isClosed, std::nullopt}
                               : ir::DimensionSharding{{}, true, std::nullopt};
  }
  if (mesh) {
    sharding::MeshView view(*mesh);
    std::stable_sort(out.replicatedAxes.begin(), out.replicatedAxes.end(),
                     [&](const ir::AxisRef& a, const ir::AxisRef& b) {
                       return sharding::axisMeshLess(view, a, b);
                     });
  }
  return out;
}

TensorSharding updatedForPriority(TensorSharding current, const TensorSharding& original,
                                  int64_t priority) {
  std::vector<ir::AxisRef> restored;
  for (size_t d = 0; d < current.dims.size() && d < original.dims.size(); ++d) {
    if (priorityOf(original.dims[d]) != priority)
      continue;
    current.dims[d] = original.dims[d];
    current.dims[d].priority.reset();
    restored.insert(restored.end(), original.dims[d].axes.begin(), original.dims[d].axes.end());
  }
  std::erase_if(current.replicatedAxes, [&](const ir::AxisRef& axis) {
    return std::find(restored.begin(), restored.end(), axis) != restored.end();
  });
  return current;
}

// Returns true when `initializedSharding` would return `sharding` unchanged: no dimension has a
// priority (not even 0, which is dropped) and there are no replicated axes to sort. Most
// shardings are such; they need not be copied.
bool isInitialized(const TensorSharding& sharding) {
  return sharding.replicatedAxes.size() <= 1 &&
         std::none_of(sharding.dims.begin(), sharding.dims.end(),
                      [](const ir::DimensionSharding& dim) { return dim.priority.has_value(); });
}

} // namespace

std::vector<PriorityRound> initializeUserPriorities(ir::Module& module) {
  std::map<int64_t, std::vector<PrioritizedSharding>> rounds;
  for (const TensorRef& tensor : allTensors(module)) {
    std::shared_ptr<const TensorSharding> stored = readTensorShared(tensor);
    if (!stored || isInitialized(*stored))
      continue;
    std::optional<TensorSharding> sharding = *stored;
    std::vector<int64_t> priorities;
    for (const ir::DimensionSharding& dim : sharding->dims)
      if (priorityOf(dim) > 0 &&
          std::find(priorities.begin(), priorities.end(), priorityOf(dim)) == priorities.end())
        priorities.push_back(priorityOf(dim));
    for (int64_t priority : priorities)
      rounds[priority].push_back({tensor, *sharding});
    TensorSharding initialized = initializedSharding(*sharding, ir::resolveMesh(module, *sharding));
    if (!(initialized == *sharding))
      writeTensor(tensor, initialized);
  }
  std::vector<PriorityRound> ordered;
  for (auto& [priority, tensors] : rounds)
    ordered.push_back({priority, std::move(tensors)});
  return ordered;
}

void applyUserPriority(const PriorityRound& round) {
  for (const PrioritizedSharding& entry : round.tensors)
    if (std::optional<TensorSharding> current = readTensor(entry.tensor))
      writeTensor(entry.tensor, updatedForPriority(*current, entry.original, round.priority));
}

} // namespace shardscope::propagation
