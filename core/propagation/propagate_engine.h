#pragma once

// The propagation driver shared by the basic, aggressive and priority passes. It mirrors how
// `sdy_opt` applies its propagation patterns with MLIR's greedy rewrite driver: every op is
// visited in pre-order, and when a sharding changes the ops touching that value are pushed back
// on a LIFO worklist, until nothing changes. Function result attributes are synced with the
// returned values before and after.

#include "core/ir/mesh_resolver.h"
#include "core/ir/module.h"
#include "core/propagation/factor_propagation.h"
#include "core/propagation/origin.h"
#include "core/propagation/propagate_groups.h"
#include "core/propagation/propagate_values.h"
#include "core/support/diagnostic.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace shardscope::propagation {

/// The direction along factor `factor` of `op` (Shardy's `GetDirectionToPropagateFn`); `rule` is
/// the op's sharding rule, null for ops propagated with an identity (data-flow edges).
using OpDirectionFn =
    std::function<Direction(const ir::Operation& op, int64_t factor, const ir::OpShardingRule* rule)>;
/// The same for every factor of `op` at once (`out` has one entry per factor), so that a schedule
/// looks at the op once rather than once per factor.
using OpDirectionsFn = std::function<void(const ir::Operation& op, const ir::OpShardingRule* rule,
                                          std::span<Direction> out)>;

class PropagationContext;

struct EngineConfig {
  const FactorPropagation* factorPropagation = nullptr;
  /// Null means both directions for every op.
  OpDirectionsFn direction;
  /// When `direction` is `schedule[round]`, a schedule shared by the runs of the propagation,
  /// the directions of all its rounds are found together and kept (see PropagationContext).
  std::span<const OpDirectionsFn> schedule;
  int round = 0;
  bool conservative = false;
  /// Attach the rules created for ops to them as `sdy.sharding_rule`.
  bool keepShardingRules = false;
  ShardingGroupMap* groups = nullptr;
  PropagationTrace* trace = nullptr;
  /// Propagate through `func.call` ops directly (call operands with the callee's arguments, the
  /// callee's returned values with the call results, and the results of private functions),
  /// standing in for the function data-flow edges of Shardy's pipeline.
  bool linkCalls = false;
  /// Per-op data shared by the engine runs of one propagation (null: the engine makes its own).
  PropagationContext* context = nullptr;
};

/// What the engine runs of one propagation share: the ops in pre-order with a dense index each
/// (for the worklist), how each op is propagated, its sharding rule, the call graph, and which
/// ops a revisit can't change. Propagation only changes sharding attributes, never the structure
/// of the IR or an op's rule, so these stay valid for all runs.
class PropagationContext {
public:
  explicit PropagationContext(ir::Module& module);
  ~PropagationContext();

  /// The ops below the module, in pre-order.
  std::span<ir::Operation* const> preorder() const { return {m_ops.data(), m_numPreorder}; }
  /// The dense index of `op` (ops outside the pre-order list get one on first use).
  uint32_t indexOf(ir::Operation* op);
  ir::Operation* op(uint32_t index) const { return m_ops[index]; }
  size_t size() const { return m_ops.size(); }
  const CallGraph& calls() const { return *m_calls; }

  /// What the engine does with an op, from its name.
  enum class OpKind : uint8_t { Unknown, Registered, Structural, Barrier, DataFlowEdge,
                                FuncDataFlowEdge, Call };
  OpKind kind(uint32_t index);

  /// The sharding rule of op `index` (`shardingRuleFor` with `conservative`), or null when it
  /// has none. Built on first use and, with `attach`, attached to the op as `sdy.sharding_rule`
  /// (the attribute then is what `shardingRuleFor` would return). The runs of one propagation
  /// must pass the same arguments. Ops with equal rules share one attribute: a rule per op took
  /// 65 MB at 100k ops.
  const ir::OpShardingRule* rule(uint32_t index, bool conservative, bool attach);

  /// The mesh `sharding` is bound to (`ir::resolveMesh`), with the named meshes looked up once.
  const ir::Mesh* mesh(const ir::TensorSharding& sharding) { return m_meshes(sharding); }

  // Ops whose last visit changed nothing and none of whose tensors changed since (every change
  // notifies them): a visit along the same factor directions would change nothing again, since a
  // step only depends on the op's tensors, rule and directions. This holds across the runs of a
  // propagation (the op-priority rounds repeat most ops' directions), as long as they use the
  // same factor strategy and every change between runs forgets the ops it concerns.

  /// Starts an engine run with factor strategy `strategy`; forgets every clean op when the
  /// previous run used another strategy or conservativeness.
  void beginRun(const void* strategy, bool conservative);
  /// Records that visiting op `index` along `directions` (a key, see PropagationEngine) in the
  /// current run changed nothing.
  void markClean(uint32_t index, uint64_t directions);
  /// Returns true when op `index` was found clean in the current run.
  bool cleanInCurrentRun(uint32_t index) const {
    return index < m_clean.size() && m_clean[index].run == m_run;
  }
  /// The directions along which op `index` was found clean in an earlier run, or nothing.
  std::optional<uint64_t> cleanDirections(uint32_t index) const {
    if (index >= m_clean.size() || m_clean[index].directions == kUncacheableDirections)
      return std::nullopt;
    return m_clean[index].directions;
  }
  /// One of op `index`'s tensors changed.
  void markDirty(uint32_t index) {
    if (index < m_clean.size())
      m_clean[index] = CleanState{};
  }
  /// Tensors changed without notifying their ops: no op is known clean any more.
  void forgetCleanOps();

  /// A direction key that never matches: the directions can't be encoded in a key.
  static constexpr uint64_t kUncacheableDirections = ~uint64_t{0} - 1;

  /// The direction key of op `index` in round `round` of `schedule` (see EngineConfig). The
  /// first time an op is asked for, `keyOf(r)` gives its key for every round `r`: then later
  /// rounds needn't look at the op again (checking that an op is still clean is the most common
  /// step of a run, and looking at an op means a cache miss).
  template <typename KeyFn>
  uint64_t scheduledDirections(uint32_t index, std::span<const OpDirectionsFn> schedule,
                               int round, KeyFn keyOf);

private:
  struct CleanState {
    uint64_t directions = kUncacheableDirections; // never matches
    uint32_t run = ~uint32_t{0};                 // no run
  };
  enum class RuleState : uint8_t { Unknown, None, Built };

  size_t slotOf(const ir::Operation* op) const;
  void addSlot(const ir::Operation* op, uint32_t index);

  std::vector<ir::Operation*> m_ops;
  size_t m_numPreorder = 0;
  // Op to index, by open addressing (asked at every notification; a node-based map's pointer
  // chasing showed in profiles). Empty slots hold null.
  std::vector<const ir::Operation*> m_slotOps;
  std::vector<uint32_t> m_slotIndices;
  int m_slotBits = 0;
  std::unique_ptr<CallGraph> m_calls;
  std::vector<OpKind> m_kinds;
  // Rules by op index: the `sdy.sharding_rule` attribute holding it (shared, immutable).
  std::vector<RuleState> m_ruleStates;
  std::vector<ir::Attribute> m_rules;
  std::unordered_multimap<uint64_t, ir::Attribute> m_internedRules; // by rule hash
  ir::MeshResolver m_meshes;
  // Direction keys by op index and schedule round, for `m_schedule`.
  std::vector<uint64_t> m_scheduledKeys;
  const OpDirectionsFn* m_schedule = nullptr;
  // Clean ops (see above).
  std::vector<CleanState> m_clean;
  uint32_t m_run = 0;
  const void* m_strategy = nullptr;
  bool m_conservative = false;
};

template <typename KeyFn>
uint64_t PropagationContext::scheduledDirections(uint32_t index,
                                                 std::span<const OpDirectionsFn> schedule,
                                                 int round, KeyFn keyOf) {
  constexpr uint64_t kUnknown = ~uint64_t{0};
  size_t numRounds = schedule.size();
  if (m_schedule != schedule.data()) {
    m_schedule = schedule.data();
    m_scheduledKeys.clear();
  }
  if (m_scheduledKeys.size() < (static_cast<size_t>(index) + 1) * numRounds)
    m_scheduledKeys.resize(std::max(m_ops.size(), static_cast<size_t>(index) + 1) * numRounds,
                           kUnknown);
  uint64_t* keys = &m_scheduledKeys[static_cast<size_t>(index) * numRounds];
  if (keys[round] == kUnknown)
    for (size_t r = 0; r < numRounds; ++r)
      keys[r] = keyOf(static_cast<int>(r));
  return keys[round];
}

/// A tensor of a propagation step: a value, a data-flow edge's targets (viewed through the
/// edge's transform), or a function result attribute.
struct TensorRef {
  enum class Kind { Value, EdgeTarget, FuncResult };
  Kind kind = Kind::Value;
  ir::Value* value = nullptr;  ///< Value: the value; EdgeTarget: the edge's result
  ir::Operation* op = nullptr; ///< EdgeTarget: the edge; FuncResult: the function
  unsigned index = 0;          ///< FuncResult: the result number

  static TensorRef of(ir::Value* v) { return {Kind::Value, v, nullptr, 0}; }
};

/// The sharding of `ref` as propagation sees it (edge targets through the edge's transform).
std::optional<ir::TensorSharding> readTensor(const TensorRef& ref);
/// Like `readTensor`, without copying a sharding stored in an attribute: the pointer shares the
/// attribute, so it stays valid when the tensor is written. Null when there is no sharding.
std::shared_ptr<const ir::TensorSharding> readTensorShared(const TensorRef& ref);
/// Stores the sharding of `ref`.
void writeTensor(const TensorRef& ref, const ir::TensorSharding& sharding);

/// The mesh the shardings of a step share.
struct CommonMesh {
  const ir::Mesh* mesh = nullptr;
  std::string name;
  std::shared_ptr<const ir::Mesh> inlineMesh;
};

/// The mesh all present (non-null) shardings use, ignoring empty meshes (`<[]>`) unless every
/// mesh is empty; nothing when there is no sharding or two non-empty meshes differ.
std::optional<CommonMesh> commonMesh(PropagationContext& context,
                                     std::span<const ir::TensorSharding* const> shardings);

/// The rule of the identity from `numOperands` tensors of `type` to one tensor of that type.
ir::OpShardingRule identityRule(const ir::Type& type, size_t numOperands = 1);

/// Reports Shardy's error for the first op result with a dynamic shape or a tuple type (which
/// propagation doesn't support) and returns false; true when there is none.
bool checkStaticShapes(ir::Module& module, support::DiagnosticSink& sink);

class PropagationEngine {
public:
  PropagationEngine(ir::Module& module, EngineConfig config, support::DiagnosticSink& sink);

  /// Propagates until a fixpoint: function results, then every op, then function results again.
  void run();

  /// Propagates through one op (registered rule, data-flow edge or barrier); exposed for tests.
  bool visit(ir::Operation& op);

private:
  bool visit(ir::Operation& op, uint32_t index);
  bool visitRegistered(ir::Operation& op, uint32_t index);
  bool visitDataFlowEdge(ir::Operation& edge);
  bool visitFuncDataFlowEdge(ir::Operation& edge);
  bool visitCall(ir::Operation& call);
  bool visitBarrier(ir::Operation& barrier);
  void propagateFuncResults();

  // Factor directions of registered ops.
  bool isClean(uint32_t index);
  uint64_t directionKey(uint32_t index);
  void computeDirections(const ir::Operation& op, const ir::OpShardingRule& rule,
                         const OpDirectionsFn& direction, std::vector<Direction>& out) const;
  std::vector<Direction> identityDirections(const ir::Operation& op, size_t numFactors) const;

  bool propagateTensors(ir::Operation& op, std::span<const TensorRef> operands,
                        std::span<const TensorRef> results, const ir::OpShardingRule& rule,
                        const FactorDirectionFn& direction, bool notify, bool conservative);
  struct Step;
  bool updateTensor(Step& step, size_t tensor);
  void recordSteps(const Step& step, size_t tensor);
  void updateGroupMembers(ir::Value& modified, const ir::TensorSharding& sharding, bool notify);

  // Worklist notifications (Shardy's `notifyShardingModified`/`notifyUsersModified`).
  void notifyShardingModified(ir::Value& value);
  void notifyUsersModified(ir::Value& value);
  void notifyCallers(ir::Operation& fn, unsigned resultIndex);
  void notifyOp(ir::Operation* op);
  void push(ir::Operation* op);
  void push(uint32_t index);
  bool pop(uint32_t& index);

  ir::Module& m_module;
  EngineConfig m_config;
  support::DiagnosticSink& m_sink;
  ir::Operation* m_current = nullptr;
  std::unique_ptr<PropagationContext> m_ownContext;
  PropagationContext* m_context = nullptr;
  const CallGraph* m_calls = nullptr;
  std::vector<uint32_t> m_worklist;
  std::vector<uint8_t> m_inWorklist;      // by op index
  std::vector<uint64_t> m_directionKeys;  // by op index: the directions in this run, once known
  std::vector<Direction> m_directions;    // scratch: the directions of the op being visited
};

} // namespace shardscope::propagation
