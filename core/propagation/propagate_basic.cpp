#include "core/propagation/propagate_basic.h"

#include "core/ir/attribute.h"
#include "core/propagation/propagate_aggressive.h"
#include "core/propagation/op_sharding_rule_registry.h"
#include "core/propagation/propagate_engine.h"
#include "core/propagation/propagate_groups.h"
#include "core/propagation/propagate_priorities.h"

#include <string>
#include <unordered_set>
#include <vector>

namespace shardscope::propagation {

void removeShardingRules(ir::Module& module) {
  module.op().walk([](ir::Operation& op) {
    const auto* rule = op.attr("sdy.sharding_rule").as<ir::ShardingRuleAttr>();
    if (rule && !rule->rule.isCustom)
      op.removeAttr("sdy.sharding_rule");
  });
}

namespace {

// Runs the engine to a fixpoint once per factor strategy of the level, with one direction
// function; the levels above compose these runs.
class Runner {
public:
  Runner(ir::Module& module, const PropagationOptions& options, support::DiagnosticSink& sink,
         ShardingGroupMap& groups, PropagationTrace* trace)
      : m_module(module), m_options(options), m_sink(sink), m_groups(groups), m_trace(trace),
        m_context(module) {}

  void basic(const OpDirectionsFn& direction) { runWith(m_basic, direction); }

  // `round` is the op-priority round `direction` is of, or -1.
  void aggressive(const OpDirectionsFn& direction, int round = -1) {
    if (m_options.strategy != PropagationStrategy::Aggressive)
      runWith(m_basic, direction, round);
    if (m_options.strategy != PropagationStrategy::Basic)
      runWith(m_aggressive, direction, round);
  }

  void opPriority() {
    if (!m_options.runOpPriorityPropagation) {
      aggressive(nullptr);
      return;
    }
    for (int round = 0; round < kNumOpPriorities; ++round)
      aggressive(m_opPrioritySchedule[static_cast<size_t>(round)], round);
  }

  void userPriority() {
    std::vector<PriorityRound> rounds = initializeUserPriorities(m_module);
    opPriority();
    for (const PriorityRound& round : rounds) {
      applyUserPriority(round);
      m_context.forgetCleanOps(); // tensors changed behind the engine's back
      opPriority();
    }
  }

private:
  void runWith(const FactorPropagation& strategy, const OpDirectionsFn& direction,
               int round = -1) {
    EngineConfig config;
    config.factorPropagation = &strategy;
    config.direction = direction;
    if (round >= 0) {
      config.schedule = m_opPrioritySchedule;
      config.round = round;
    }
    config.conservative = m_options.conservativePropagation;
    config.keepShardingRules = m_options.keepShardingRules;
    config.groups = &m_groups;
    config.trace = m_trace;
    config.linkCalls = m_options.propagateThroughCalls;
    config.context = &m_context;
    PropagationEngine(m_module, config, m_sink).run();
  }

  ir::Module& m_module;
  const PropagationOptions& m_options;
  support::DiagnosticSink& m_sink;
  ShardingGroupMap& m_groups;
  PropagationTrace* m_trace;
  BasicFactorPropagation m_basic;
  AggressiveFactorPropagation m_aggressive;
  PropagationContext m_context;
  // The direction functions of the op-priority rounds, shared by all runs.
  std::vector<OpDirectionsFn> m_opPrioritySchedule = [] {
    std::vector<OpDirectionsFn> schedule;
    for (int round = 0; round < kNumOpPriorities; ++round)
      schedule.push_back(opPriorityDirections(round));
    return schedule;
  }();
};

// Shardings do not flow through an op without a sharding rule. Like Shardy, say so once (per
// kind: custom calls, other ops) for an op the registry does not know, at that op, instead of
// silently. One lookup per op name (per target for custom calls) keeps this cheap.
void warnAboutOpsWithoutRule(const ir::Module& module, const PropagationOptions& options,
                             support::DiagnosticSink& sink) {
  bool customCallReported = false, opReported = false;
  std::unordered_set<std::string> seen;
  module.op().walk([&](const ir::Operation& op) {
    if (customCallReported && opReported)
      return;
    if (op.hasAttr("sdy.sharding_rule"))
      return;
    std::string key(op.name());
    if (const auto* target = op.attr("call_target_name").as<ir::StringAttr>())
      key += "@" + target->value;
    if (!seen.insert(std::move(key)).second)
      return;
    RuleLookup lookup =
        lookupShardingRule(op, RuleOptions{options.conservativePropagation});
    bool& reported = lookup.missing == RuleLookup::Missing::UnknownCustomCall ? customCallReported
                                                                              : opReported;
    if (lookup.missing == RuleLookup::Missing::None || reported)
      return;
    reported = true;
    sink.warning(op.loc(), lookup.warning);
  });
}

} // namespace

bool propagate(ir::Module& module, const PropagationOptions& options,
               support::DiagnosticSink& sink, PropagationTrace* trace) {
  if (!checkStaticShapes(module, sink))
    return false;
  warnAboutOpsWithoutRule(module, options, sink);
  ShardingGroupMap groups(module);
  groups.syncMemberShardings(module, sink);
  Runner runner(module, options, sink, groups, trace);
  switch (options.level) {
  case PropagationLevel::Basic:
    runner.basic(nullptr);
    break;
  case PropagationLevel::Aggressive:
    runner.aggressive(nullptr);
    break;
  case PropagationLevel::OpPriority:
    runner.opPriority();
    break;
  case PropagationLevel::UserPriority:
    runner.userPriority();
    break;
  }
  if (!options.keepShardingRules)
    removeShardingRules(module);
  return true;
}

} // namespace shardscope::propagation
