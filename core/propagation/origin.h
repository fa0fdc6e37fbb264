#pragma once

// Where a propagated sharding came from. While propagating, the engine records one step per
// factor expansion of a tensor: the op it went through, the direction, the factor, the axes and
// the tensor that already held them. Following the sources backwards from a tensor leads to the
// seeds: tensors whose shardings were given (annotations) rather than propagated.

#include "core/ir/operation.h"
#include "core/ir/sdy_types.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace shardscope::propagation {

/// A tensor whose sharding propagation reads or writes: a value, or result `index` of a function
/// (its `res_attrs`), which has no value of its own.
struct TraceTensor {
  const ir::Value* value = nullptr;
  const ir::Operation* funcResultOf = nullptr;
  unsigned index = 0;

  static TraceTensor of(const ir::Value* v) { return {v, nullptr, 0}; }
  static TraceTensor funcResult(const ir::Operation* fn, unsigned i) { return {nullptr, fn, i}; }
  bool operator==(const TraceTensor&) const = default;
};

struct TraceTensorHash {
  size_t operator()(const TraceTensor& t) const {
    return std::hash<const void*>()(t.value) ^ (std::hash<const void*>()(t.funcResultOf) << 1) ^
           t.index;
  }
};

/// How a step moved a sharding relative to the op it went through.
enum class StepDirection {
  Forward,  ///< from an operand to a result
  Backward, ///< from a result to an operand
  Sideways, ///< between two operands or two results
  Group,    ///< to another member of a sharding group
};

/// One expansion of one factor of one tensor.
struct PropagationStep {
  /// The op propagated through (the function for result attributes, the `sdy.sharding_group` op
  /// for group members; null when unknown).
  const ir::Operation* op = nullptr;
  StepDirection direction = StepDirection::Forward;
  /// The factor of the op's rule (-1 for group steps, which copy the whole sharding).
  int64_t factor = -1;
  /// The axes of the factor after the step.
  std::vector<ir::AxisRef> axes;
  TraceTensor source;
  TraceTensor target;
};

/// The origin of one tensor's sharding.
struct Origin {
  /// Tensors the sharding came from whose own shardings were not propagated (annotations).
  std::vector<TraceTensor> seeds;
  /// The steps leading from the seeds to the tensor, in the order they happened.
  std::vector<PropagationStep> chain;
};

/// Every propagation step of a run. Cheap to record: one entry per factor expansion.
class PropagationTrace {
public:
  /// Records `step`; the source's sharding `sourceSharding` is kept when it is seen for the
  /// first time and nothing was propagated to it yet (it is then a seed's annotation).
  void addStep(PropagationStep step, const ir::TensorSharding* sourceSharding = nullptr);

  const std::vector<PropagationStep>& steps() const { return m_steps; }
  /// Returns true when propagation changed the sharding of `tensor`.
  bool changed(const TraceTensor& tensor) const { return m_incoming.count(tensor) != 0; }
  /// The tensors whose sharding propagation changed, in the order they were first changed.
  std::vector<TraceTensor> changedTensors() const;
  /// Follows the sources of `tensor`'s steps back to the seeds.
  Origin originOf(const TraceTensor& tensor) const;
  /// The annotation a seed had when it was first propagated from, or null.
  const ir::TensorSharding* seedSharding(const TraceTensor& seed) const;
  void clear();

private:
  std::vector<PropagationStep> m_steps;
  /// Indices into `m_steps` of the steps targeting each tensor.
  std::unordered_map<TraceTensor, std::vector<size_t>, TraceTensorHash> m_incoming;
  std::unordered_map<TraceTensor, ir::TensorSharding, TraceTensorHash> m_seedShardings;
  std::vector<TraceTensor> m_changedOrder;
};

/// A one-line description of a step, e.g. `stablehlo.add forward factor 0 ["a"]`.
std::string describeStep(const PropagationStep& step);

/// An origin in words, for the views and the command line.
struct OriginText {
  struct Seed {
    std::string tensor;     ///< as `nameOf` names it
    std::string annotation; ///< Shardy notation, or `(annotation)` when not recorded
  };
  struct Step {
    std::string text; ///< `%arg0 -> %0: stablehlo.add forward factor 0 ["x"]`
    uint32_t line = 0; ///< the op's source line, 0 when unknown
  };
  std::vector<Seed> seeds;
  std::vector<Step> steps;
};

/// Describes `origin` (of a tensor of `trace`), naming tensors with `nameOf`.
template <typename NameOf>
OriginText describeOrigin(const PropagationTrace& trace, const Origin& origin, NameOf nameOf);

/// The name of a traced tensor that is not a value: `@main result #0`.
std::string funcResultName(const TraceTensor& tensor);

/// Shardy notation of `sharding`; implemented in the .cpp to keep this header light.
std::string annotationText(const ir::TensorSharding* sharding);

template <typename NameOf>
OriginText describeOrigin(const PropagationTrace& trace, const Origin& origin, NameOf nameOf) {
  OriginText out;
  for (const TraceTensor& seed : origin.seeds)
    out.seeds.push_back({nameOf(seed), annotationText(trace.seedSharding(seed))});
  for (const PropagationStep& step : origin.chain)
    out.steps.push_back({nameOf(step.source) + " -> " + nameOf(step.target) + ": " +
                             describeStep(step),
                         step.op ? step.op->loc().line : 0});
  return out;
}

} // namespace shardscope::propagation
