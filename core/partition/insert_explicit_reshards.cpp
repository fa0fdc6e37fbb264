#include "core/partition/insert_explicit_reshards.h"

#include "core/sharding/verify_unreduced_axes.h"

#include "core/partition/detail/cache_key.h"
#include "core/ir/mesh_resolver.h"
#include "core/partition/explicit_reshards_data_flow.h"
#include "core/partition/explicit_reshards_factor_axes.h"
#include "core/partition/explicit_reshards_reshape.h"
#include "core/partition/explicit_reshards_single_device.h"
#include "core/partition/explicit_reshards_unreduced.h"
#include "core/partition/explicit_reshards_util.h"
#include "core/propagation/import_data_flow.h"
#include "core/propagation/op_sharding_rule_registry.h"
#include "core/propagation/sharding_projection.h"
#include "core/sharding/mesh_view.h"
#include "core/sharding/sharding_equivalence.h"
#include "core/sharding/value_sharding.h"
#include "core/sharding/verify_unreduced_axes.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace shardscope::partition {
namespace {

using ir::AxisRef;
using ir::Operation;
using ir::TensorSharding;
using Axes = std::vector<AxisRef>;

// The mesh an op is computed on: the most common mesh among its sharded tensors (meshes may
// differ only in device order; tensors sharded on another order are resharded). Null when the
// tensors use meshes with different axes, or none has a sharding.
const ir::Mesh* commonMesh(const ir::Module& module,
                           const std::vector<const TensorSharding*>& shardings,
                           std::string& meshName) {
  // The tensors of an op nearly always name one mesh: look each new name up once.
  ir::MeshResolver lookup(module);
  auto meshOf = [&](const std::string& name) { return lookup.byName(name); };
  const ir::Mesh* first = nullptr;
  std::map<std::string, int> counts;
  int bestCount = 0;
  for (const TensorSharding* s : shardings) {
    if (!s)
      continue;
    const ir::Mesh* m = meshOf(s->meshName);
    if (!m || m->axes.empty() || (first && m->axes != first->axes))
      return nullptr;
    if (!first) {
      first = m;
      meshName = s->meshName;
    }
    if (sharding::isFullyReplicated(s))
      continue;
    if (++counts[s->meshName] > bestCount) {
      bestCount = counts[s->meshName];
      meshName = s->meshName;
    }
  }
  return first ? meshOf(meshName) : nullptr;
}

std::vector<int64_t> deviceOrder(const ir::Mesh& m) { return sharding::MeshView(m).deviceIds(); }

TensorSharding openReplicatedOn(const std::string& meshName, int64_t rank) {
  TensorSharding out = replicatedOn(meshName, rank);
  for (ir::DimensionSharding& d : out.dims)
    d.isClosed = false;
  return out;
}

bool supportedRule(const ir::OpShardingRule& rule) { return !rule.isCustom; }

// The shardings of `op`'s operands then results (null: none), or nothing when one isn't a ranked
// tensor or has a sharding this pass does not handle (inline mesh, unreduced or replicated axes).
// They are not copied: they point into the attributes that hold them (valid until `op`'s own
// `sdy.sharding` is replaced), or into `scratch` for those that are computed.
std::optional<std::vector<const TensorSharding*>>
collectShardings(Operation& op, std::vector<ir::Value*>& values,
                 std::vector<std::optional<TensorSharding>>& scratch) {
  for (ir::Value* v : op.operands())
    values.push_back(v);
  for (const auto& r : op.results())
    values.push_back(r.get());
  scratch.resize(values.size()); // sized before pointers into it are taken
  std::vector<const TensorSharding*> shardings;
  for (size_t t = 0; t < values.size(); ++t) {
    const ir::Value* v = values[t];
    if (!v->type().isTensor() || !v->type().hasStaticShape())
      return std::nullopt;
    const TensorSharding* s = sharding::valueShardingRef(*v, scratch[t]);
    if (s && (s->inlineMesh || s->meshName.empty() || !s->replicatedAxes.empty() ||
              static_cast<int64_t>(s->dims.size()) != v->type().rank()))
      return std::nullopt;
    shardings.push_back(s);
  }
  // Shardy assumes every result has the same unreduced axes.
  static const Axes kNoAxes;
  auto unreduced = [&](size_t t) -> const Axes& {
    return shardings[t] ? shardings[t]->unreducedAxes : kNoAxes;
  };
  for (size_t t = op.numOperands() + 1; t < shardings.size(); ++t)
    if (unreduced(t) != unreduced(op.numOperands()))
      return std::nullopt;
  return shardings;
}

// Everything `processOp` decided for one op: the new sharding of every tensor, which tensors
// change, and the axes the results are all-reduced over.
struct OpPlan {
  std::vector<TensorSharding> newShardings;
  std::vector<ir::Attribute> newShardingAttrs; // `newShardings`, built once for every reshard
  std::vector<bool> update;
  Axes allReduceAxes;
};

// Returns true when every tensor's rank matches the rule and every axis exists in the mesh.
bool matchesRule(const ir::OpShardingRule& rule, const std::vector<ir::Value*>& values,
                 const std::vector<std::optional<TensorSharding>>& shardings, size_t numOperands,
                 const sharding::MeshView& view) {
  for (size_t t = 0; t < values.size(); ++t) {
    const ir::TensorMapping& mapping =
        t < numOperands ? rule.operands[t] : rule.results[t - numOperands];
    if (static_cast<int64_t>(mapping.dims.size()) != values[t]->type().rank())
      return false;
    if (shardings[t])
      for (const ir::DimensionSharding& dim : shardings[t]->dims)
        for (const AxisRef& a : dim.axes)
          if (view.sizeOf(a) <= 0)
            return false;
  }
  return true;
}

std::optional<OpPlan> planOp(Operation& op, const ir::OpShardingRule& rule,
                             const std::vector<ir::Value*>& values,
                             const std::vector<std::optional<TensorSharding>>& shardings,
                             const std::string& meshName, const ir::Mesh& mesh) {
  const sharding::MeshView view(mesh);
  const size_t numOperands = op.numOperands();
  if (!matchesRule(rule, values, shardings, numOperands, view))
    return std::nullopt;
  std::vector<std::optional<TensorSharding>> ins(shardings.begin(),
                                                 shardings.begin() + numOperands);
  std::vector<std::optional<TensorSharding>> outs(shardings.begin() + numOperands, shardings.end());
  propagation::ShardingProjection projection =
      propagation::ShardingProjection::build(ins, outs, rule, view, /*closedIfMissing=*/true);
  std::vector<TensorFactorAxes> tensors(values.size());
  std::vector<int64_t> tensorSizes;
  std::vector<bool> overflow(values.size(), false);
  for (size_t t = 0; t < values.size(); ++t) {
    const propagation::TensorFactorShardings& tfs = projection.tensor(t);
    for (size_t f = 0; f < tfs.factors.size(); ++f)
      if (tfs.factors[f]) {
        tensors[t][static_cast<int64_t>(f)] = tfs.factors[f]->axes;
        overflow[t] = overflow[t] || !tfs.factors[f]->overflowAxes.empty();
      }
    tensorSizes.push_back(values[t]->type().numElements());
  }
  if (std::count(overflow.begin(), overflow.end(), true) != 0) {
    // Shardy redistributes the axes of a reshape with overflow axes; other ops with overflow
    // axes are not modelled.
    if (!op.is("stablehlo.reshape") || values.size() != 2)
      return std::nullopt;
    auto [in, out] = alignReshapeWithOverflowAxes(projection, rule, meshName, view);
    OpPlan plan;
    plan.update = {!sharding::equivalentShardings(ins[0], in),
                   !sharding::equivalentShardings(out, outs[0])};
    plan.newShardings = {std::move(in), std::move(out)};
    return plan;
  }
  std::vector<FactorAxes> assigned = findCommonFactorAxes(tensors, tensorSizes, rule, view);

  OpPlan plan;
  for (size_t t = 0; t < values.size(); ++t) {
    propagation::TensorFactorShardings& tfs = projection.tensor(t);
    bool changed = overflow[t];
    for (const auto& [factor, axes] : tensors[t]) {
      propagation::FactorSharding* fs = tfs.find(factor);
      changed = changed || axes != assigned[static_cast<size_t>(factor)];
      fs->axes = assigned[static_cast<size_t>(factor)];
      fs->overflowAxes.clear();
    }
    const ir::TensorMapping& mapping =
        t < numOperands ? rule.operands[t] : rule.results[t - numOperands];
    plan.newShardings.push_back(
        tfs.toTensorSharding(mapping, rule.factorSizes, meshName, nullptr, view));
    plan.update.push_back(changed);
  }
  // The results are partial sums along the axes of the reduction factors: all-reduce them over
  // the axes the results don't keep unreduced.
  Axes reductionAxes;
  for (int64_t factor : rule.reductionFactors)
    for (const AxisRef& a : assigned[static_cast<size_t>(factor)])
      reductionAxes.push_back(a);
  if (!reductionAxes.empty() && op.numResults() > 0)
    plan.allReduceAxes =
        axisSetDiff(reductionAxes, outs[0] ? outs[0]->unreducedAxes : Axes{}, view);
  return plan;
}

// The plans of ops already seen: `planOp` depends only on the op's rule, its tensors' shapes and
// shardings and the mesh, and a large program repeats the same few combinations many times.
class PlanCache {
public:
  const std::optional<OpPlan>& plan(Operation& op, const ir::OpShardingRule& rule,
                                    const std::vector<ir::Value*>& values,
                                    const std::vector<const TensorSharding*>& shardings,
                                    const std::string& meshName, const ir::Mesh& mesh) {
    detail::CacheKey key;
    // `planOp` asks whether the op is a reshape, and the mesh follows from its name.
    key.add(int64_t{op.is("stablehlo.reshape")}).add(meshName).add(op.numOperands());
    addRule(key, rule);
    key.add(static_cast<int64_t>(values.size()));
    for (size_t t = 0; t < values.size(); ++t) {
      key.add(values[t]->type().shape()).add(int64_t{shardings[t] != nullptr});
      if (shardings[t])
        key.add(*shardings[t]);
    }
    auto it = m_plans.find(key.bytes());
    if (it == m_plans.end())
      it = m_plans.emplace(key.take(), build(op, rule, values, shardings, meshName, mesh)).first;
    return it->second;
  }

private:
  static std::optional<OpPlan> build(Operation& op, const ir::OpShardingRule& rule,
                                     const std::vector<ir::Value*>& values,
                                     const std::vector<const TensorSharding*>& shardings,
                                     const std::string& meshName, const ir::Mesh& mesh) {
    std::vector<std::optional<TensorSharding>> copies;
    for (const TensorSharding* s : shardings)
      copies.push_back(s ? std::optional(*s) : std::nullopt);
    std::optional<OpPlan> plan = planOp(op, rule, values, copies, meshName, mesh);
    if (plan)
      for (const TensorSharding& s : plan->newShardings)
        plan->newShardingAttrs.push_back(ir::Attribute::sharding(s));
    return plan;
  }

  static void addRule(detail::CacheKey& key, const ir::OpShardingRule& rule) {
    for (const auto* mappings : {&rule.operands, &rule.results}) {
      key.add(static_cast<int64_t>(mappings->size()));
      for (const ir::TensorMapping& mapping : *mappings) {
        key.add(static_cast<int64_t>(mapping.dims.size()));
        for (const std::vector<int64_t>& factors : mapping.dims)
          key.add(factors);
      }
    }
    key.add(rule.factorSizes).add(rule.reductionFactors).add(rule.needReplicationFactors);
    key.add(rule.permutationFactors).add(rule.blockedPropagationFactors);
    key.add(int64_t{rule.isCustom});
  }

  std::unordered_map<std::string, std::optional<OpPlan>> m_plans;
};

// Inserts the all-reduces and reshards after `op` that `plan` asks for (before `after`), and sets
// the results' new shardings; `update` says which tensors change (`plan.update` and more).
void rewriteResults(Operation& op, Operation& after, const OpPlan& plan,
                    const std::vector<bool>& update,
                    const std::vector<const TensorSharding*>& shardings,
                    const std::string& meshName) {
  const size_t numOperands = op.numOperands();
  std::vector<TensorSharding> resultShardings;
  bool anyResult = false;
  std::vector<std::vector<ir::Use>> uses;
  std::vector<ir::Value*> current;
  for (unsigned r = 0; r < op.numResults(); ++r) {
    const size_t t = numOperands + r;
    uses.push_back(op.result(r)->uses());
    current.push_back(op.result(r));
    // Setting one result's sharding on an op without any gives the other results open ones.
    resultShardings.push_back(update[t] ? plan.newShardings[t]
                              : shardings[t]
                                  ? *shardings[t]
                                  : openReplicatedOn(meshName, op.result(r)->type().rank()));
    anyResult = anyResult || update[t];
  }
  // Shardy puts the all-reduces right after the op, then the result reshards; an all-reduce
  // keeps its result's sharding (closed replicated when the op has none).
  if (!anyResult)
    for (unsigned r = 0; r < op.numResults(); ++r)
      if (!shardings[numOperands + r])
        resultShardings[r] = replicatedOn(meshName, op.result(r)->type().rank());
  if (!plan.allReduceAxes.empty()) {
    // A reduction combines its partial results with its own operator: the maximum of per-device
    // maxima, not their sum (Shardy's all-reduce knows sum, max and min).
    std::string kind = op.is("stablehlo.reduce") ? sharding::bodyReduction(op).value_or("") : "";
    if (kind == "sum")
      kind.clear();
    for (unsigned r = 0; r < op.numResults(); ++r)
      current[r] = insertAllReduceBefore(after, current[r], plan.allReduceAxes, resultShardings[r],
                                         op.loc(), kind);
  }
  // Shardy reshards each updated result back to its sharding, creating a closed replicated one
  // when the op had none; once one result got a sharding, the others read as open.
  bool hadShardings = op.attr("sdy.sharding").as<ir::ShardingPerValueAttr>() != nullptr;
  for (unsigned r = 0; r < op.numResults(); ++r) {
    const size_t t = numOperands + r;
    if (update[t]) {
      const int64_t rank = op.result(r)->type().rank();
      TensorSharding original = shardings[t]   ? *shardings[t]
                                : hadShardings ? openReplicatedOn(meshName, rank)
                                               : replicatedOn(meshName, rank);
      hadShardings = true;
      current[r] = insertReshardBefore(after, current[r], original)->result(0);
    }
    if (current[r] != op.result(r))
      for (const ir::Use& use : uses[r])
        use.user->setOperand(use.index, current[r]);
  }
  // Last: this frees the attribute the results' entries of `shardings` point into.
  if (anyResult)
    op.setAttr("sdy.sharding", ir::Attribute::shardingPerValue(resultShardings));
}

void processOp(ir::Module& module, Operation& op, PlanCache& plans) {
  // Ops with regions other than computations applied per element (a reduction's body, a sort's
  // comparator) are control flow, which this pass leaves alone.
  const bool bodyIsComputation =
      op.is("stablehlo.sort") || op.is("stablehlo.reduce") || op.is("stablehlo.reduce_window") ||
      op.is("stablehlo.select_and_scatter") || op.is("stablehlo.scatter") ||
      op.is("stablehlo.all_reduce") || op.is("stablehlo.reduce_scatter");
  if ((op.numRegions() != 0 && !bodyIsComputation) || op.dialect() != "stablehlo" ||
      op.numResults() == 0)
    return;
  std::optional<ir::OpShardingRule> rule = propagation::shardingRuleFor(op);
  if (!rule || !supportedRule(*rule) || rule->operands.size() != op.numOperands() ||
      rule->results.size() != op.numResults())
    return;
  std::vector<ir::Value*> values;
  std::vector<std::optional<TensorSharding>> scratch;
  std::optional<std::vector<const TensorSharding*>> collected =
      collectShardings(op, values, scratch);
  if (!collected)
    return;
  const std::vector<const TensorSharding*>& shardings = *collected;
  std::string meshName;
  const ir::Mesh* mesh = commonMesh(module, shardings, meshName);
  Operation* after = nextOp(op);
  if (!mesh || !after)
    return; // results can only be resharded before a following op (the terminator)
  const std::optional<OpPlan>& plan = plans.plan(op, *rule, values, shardings, meshName, *mesh);
  if (!plan)
    return;
  std::vector<bool> update = plan->update;
  // Tensors sharded (not fully replicated) on a mesh with another device order are resharded.
  for (size_t t = 0; t < shardings.size(); ++t)
    if (shardings[t] && !sharding::isFullyReplicated(shardings[t]) &&
        shardings[t]->meshName != meshName) {
      TensorSharding probe;
      probe.meshName = shardings[t]->meshName;
      if (deviceOrder(*ir::resolveMesh(module, probe)) != deviceOrder(*mesh))
        update[t] = true;
    }

  for (unsigned i = 0; i < op.numOperands(); ++i)
    if (update[i])
      op.setOperand(i,
                    insertReshardBefore(op, op.operand(i), plan->newShardingAttrs[i])->result(0));
  rewriteResults(op, *after, *plan, update, shardings, meshName);
}

// Ops whose operands are edges to their results or callee (Shardy's data-flow ops and calls):
// their unreduced operands are handled per edge, not against their first result.
bool isDataFlowOrCall(const Operation& op) {
  for (const char* name :
       {"func.call", "stablehlo.while", "stablehlo.case", "stablehlo.if",
        "stablehlo.optimization_barrier", "sdy.named_computation", "sdy.manual_computation"})
    if (op.is(name))
      return true;
  return false;
}

// Reshards each returned value whose sharding differs from the function's result sharding.
void processReturn(const ir::Module& module, Operation& func, Operation& ret) {
  for (unsigned i = 0; i < ret.numOperands(); ++i) {
    ir::Value* operand = ret.operand(i);
    if (!operand->type().isTensor())
      continue;
    std::optional<TensorSharding> target;
    if (const ir::DictionaryAttr* attrs = ir::func::resultAttrs(func, i))
      if (const auto* attr = attrs->get("sdy.sharding").as<ir::ShardingAttr>())
        target = attr->sharding;
    std::optional<TensorSharding> source = sharding::valueSharding(*operand);
    bool unsupported = false;
    for (const auto* s : {&target, &source})
      if (*s && ((*s)->inlineMesh || (*s)->meshName.empty() || !(*s)->replicatedAxes.empty() ||
                 static_cast<int64_t>((*s)->dims.size()) != operand->type().rank()))
        unsupported = true;
    if (unsupported)
      continue;
    source = allReduceUnreducedOperand(module, ret, i, target);
    operand = ret.operand(i);
    if (source && target && makeOperandUnreduced(module, ret, i, *source, *target))
      continue;
    const Axes sourceUnreduced = source ? source->unreducedAxes : Axes{};
    if (target && target->unreducedAxes != sourceUnreduced)
      continue; // Shardy leaves other changes of unreduced axes alone
    if (sharding::isFullyReplicated(source) && sharding::isFullyReplicated(target))
      continue;
    TensorSharding reshardTo;
    if (target) {
      if (source && source->meshName == target->meshName) {
        if (source->dims == target->dims)
          continue;
        bool sameAxes = true;
        for (size_t d = 0; d < source->dims.size(); ++d)
          sameAxes = sameAxes && source->dims[d].axes == target->dims[d].axes;
        if (sameAxes && source->unreducedAxes == target->unreducedAxes)
          continue; // only open/closed or priorities differ: left as is
      }
      reshardTo = *target;
    } else {
      reshardTo = replicatedOn(source->meshName, operand->type().rank());
    }
    Operation* reshard = insertReshardBefore(ret, operand, reshardTo);
    ret.setOperand(i, reshard->result(0));
  }
}

// What a walk over one function needs.
struct WalkState {
  ir::Module& module;
  support::DiagnosticSink& sink;
  bool fullVersion = false;
  bool ok = true;
  PlanCache plans{};
  ir::MeshResolver meshes{module};
};

// Without the full version Shardy still reshards concatenates whose operands are sharded unlike
// their result.
bool concatenateNeedsReshards(const Operation& op) {
  if (!op.is("stablehlo.concatenate") || op.numResults() != 1)
    return false;
  std::optional<TensorSharding> result = sharding::valueSharding(*op.result(0));
  for (ir::Value* operand : op.operands())
    if (sharding::valueSharding(*operand) != result)
      return true;
  return false;
}

void processNestedOp(WalkState& state, Operation& op) {
  if (op.is("func.call")) {
    reshardCallOperands(state.module, op); // calls always get the full version
    return;
  }
  if (isDataFlowOp(op)) {
    if (state.fullVersion)
      reshardDataFlowEdges(state.module, op);
    return;
  }
  if (convertReshardToUnreducedCollectives(state.module, op))
    return;
  if (state.fullVersion) {
    SingleDeviceOutcome outcome = processSingleDeviceOp(state.module, op, state.meshes, state.sink);
    if (outcome == SingleDeviceOutcome::Failed)
      state.ok = false;
    if (outcome != SingleDeviceOutcome::NotSingleDevice)
      return;
  }
  if (!isDataFlowOrCall(op))
    allReduceUnreducedOperands(state.module, op);
  if (state.fullVersion || concatenateNeedsReshards(op))
    processOp(state.module, op, state.plans);
}

// Processes the ops of `block`, the ops nested in each op's regions first (as Shardy's post-order
// walk does); the bodies of named computations are left alone.
void processBlock(WalkState& state, ir::Block& block) {
  std::vector<Operation*> ops;
  for (const auto& p : block.ops())
    ops.push_back(p.get());
  for (Operation* op : ops) {
    if (!op->is("sdy.named_computation"))
      for (unsigned r = 0; r < op->numRegions(); ++r)
        for (const auto& nested : op->region(r).blocks())
          processBlock(state, *nested);
    if (!op->is("func.return") && !op->is("stablehlo.return") && !op->is("sdy.return"))
      processNestedOp(state, *op);
  }
}

} // namespace

bool insertExplicitReshards(ir::Module& module, const InsertExplicitReshardsOptions& options,
                            support::DiagnosticSink& sink) {
  WalkState state{module, sink, options.enableFullVersion};
  NextOpScope positions; // nextOp is asked for every op: index the blocks' positions
  // The functions are taken up front, nothing else: processing a body erases ops of it (reshards
  // turned into unreduced collectives), so a list of every op would hold freed ones.
  for (Operation* func : module.functions()) {
    if (func->numRegions() == 0 || func->region(0).blocks().empty())
      continue;
    if (state.fullVersion && !verifyNoSingleDeviceBoundary(module, *func, sink)) {
      state.ok = false;
      continue;
    }
    ir::Block& body = func->region(0).front();
    processBlock(state, body);
    if (body.ops().empty() || !body.ops().back()->is("func.return"))
      continue;
    Operation& ret = *body.ops().back();
    if (state.fullVersion) {
      processReturn(module, *func, ret);
      continue;
    }
    for (unsigned i = 0; i < ret.numOperands(); ++i) {
      std::optional<TensorSharding> target;
      if (const ir::DictionaryAttr* attrs = ir::func::resultAttrs(*func, i))
        if (const auto* attr = attrs->get("sdy.sharding").as<ir::ShardingAttr>())
          target = attr->sharding;
      allReduceUnreducedOperand(module, ret, i, target);
    }
  }
  return state.ok;
}

} // namespace shardscope::partition
