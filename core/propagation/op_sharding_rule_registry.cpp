// The op sharding rule registry: maps each op kind to the function that builds its rule
// (rules_*.cpp), following Shardy's `createOpShardingRule`.
#include "core/propagation/op_sharding_rule_registry.h"

#include "core/ir/attribute.h"
#include "core/propagation/detail/rules.h"
#include "core/propagation/detail/attr_readers.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace shardscope::propagation {

namespace {

using detail::RuleFn;

// Ops whose every dimension maps to the same dimension of every other tensor.
constexpr std::string_view kPointwiseOps[] = {
    "sdy.sharding_constraint",        "stablehlo.abs",
    "stablehlo.add",                  "stablehlo.all_reduce",
    "stablehlo.and",                  "stablehlo.atan2",
    "stablehlo.cbrt",                 "stablehlo.ceil",
    "stablehlo.count_leading_zeros",  "stablehlo.collective_permute",
    "stablehlo.compare",              "stablehlo.complex",
    "stablehlo.convert",              "stablehlo.cosine",
    "stablehlo.cross-replica-sum",    "stablehlo.divide",
    "stablehlo.exponential",          "stablehlo.exponential_minus_one",
    "stablehlo.floor",                "stablehlo.imag",
    "stablehlo.is_finite",            "stablehlo.log_plus_one",
    "stablehlo.log",                  "stablehlo.logistic",
    "stablehlo.maximum",              "stablehlo.minimum",
    "stablehlo.multiply",             "stablehlo.negate",
    "stablehlo.not",                  "stablehlo.or",
    "stablehlo.popcnt",               "stablehlo.power",
    "stablehlo.real",                 "stablehlo.reduce_precision",
    "stablehlo.remainder",            "stablehlo.round_nearest_even",
    "stablehlo.round_nearest_afz",    "stablehlo.rsqrt",
    "stablehlo.shift_left",           "stablehlo.shift_right_arithmetic",
    "stablehlo.shift_right_logical",  "stablehlo.sign",
    "stablehlo.sine",                 "stablehlo.sqrt",
    "stablehlo.subtract",             "stablehlo.tan",
    "stablehlo.tanh",                 "stablehlo.xor",
};

// Ops that deliberately have no rule: they are handled separately by propagation (control flow,
// data-flow ops, function boundaries) or have nothing to propagate (constants, tokens, I/O).
constexpr std::string_view kNoRuleOps[] = {
    "builtin.module",           "func.func",
    "func.call",                "stablehlo.after_all",      "stablehlo.case",
    "stablehlo.constant",       "stablehlo.create_token",
    "stablehlo.get_tuple_element", "stablehlo.if",
    "stablehlo.infeed",         "stablehlo.iota",
    "stablehlo.outfeed",        "stablehlo.optimization_barrier",
    "stablehlo.partition_id",   "stablehlo.recv",
    "stablehlo.send",           "stablehlo.while",
};

// Block terminators, which never get a rule.
constexpr std::string_view kTerminators[] = {"func.return", "stablehlo.return", "sdy.return"};

const std::unordered_map<std::string_view, RuleFn>& ruleTable() {
  using namespace detail;
  static const std::unordered_map<std::string_view, RuleFn> table = [] {
    std::unordered_map<std::string_view, RuleFn> t = {
        {"stablehlo.all_gather", allGatherRule},
        {"stablehlo.all_to_all", allToAllRule},
        {"stablehlo.batch_norm_grad", batchNormRule},
        {"stablehlo.batch_norm_inference", batchNormRule},
        {"stablehlo.batch_norm_training", batchNormRule},
        {"stablehlo.bitcast_convert", bitcastConvertRule},
        {"stablehlo.broadcast_in_dim", broadcastInDimRule},
        {"stablehlo.cholesky", choleskyRule},
        {"stablehlo.clamp", clampRule},
        {"stablehlo.concatenate", concatenateRule},
        {"stablehlo.convolution", convolutionRule},
        {"stablehlo.custom_call", customCallRule},
        {"stablehlo.dot", dotRule},
        {"stablehlo.dot_general", dotGeneralRule},
        {"stablehlo.dynamic_slice", dynamicSliceRule},
        {"stablehlo.dynamic_update_slice", dynamicUpdateSliceRule},
        {"stablehlo.fft", fftRule},
        {"stablehlo.gather", gatherRule},
        {"stablehlo.get_dimension_size", getDimensionSizeRule},
        {"stablehlo.pad", padRule},
        {"stablehlo.reduce", reduceRule},
        {"stablehlo.reduce_scatter", reduceScatterRule},
        {"stablehlo.reduce_window", reduceWindowRule},
        {"stablehlo.reshape", reshapeRule},
        {"stablehlo.reverse", reverseRule},
        {"stablehlo.rng_bit_generator", rngBitGeneratorRule},
        {"stablehlo.scatter", scatterRule},
        {"stablehlo.select", selectRule},
        {"stablehlo.select_and_scatter", selectAndScatterRule},
        {"stablehlo.slice", sliceRule},
        {"stablehlo.sort", sortRule},
        {"stablehlo.transpose", transposeRule},
        {"stablehlo.triangular_solve", triangularSolveRule},
    };
    for (std::string_view name : kPointwiseOps)
      t.emplace(name, pointwiseRule);
    return t;
  }();
  return table;
}

template <size_t N> bool isOneOf(std::string_view name, const std::string_view (&list)[N]) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

// Ops Shardy leaves without a rule and without a warning. Shardy's own ops other than
// `sharding_constraint` are handled by propagation itself (or only exist after it).
bool deliberatelyWithoutRule(const ir::Operation& op) {
  return isOneOf(op.name(), kNoRuleOps) || isOneOf(op.name(), kTerminators) ||
         op.dialect() == "sdy";
}

// Why `op`, which got no rule, has none. Ops of the table that get none (an empty reshape, a
// custom call Shardy ignores) are known, except custom calls to targets the registry lacks.
RuleLookup withoutRule(const ir::Operation& op, bool inTable) {
  RuleLookup lookup;
  if (detail::isUnknownCustomCall(op)) {
    lookup.missing = RuleLookup::Missing::UnknownCustomCall;
    lookup.warning = "custom call @" + detail::stringAttr(op, "call_target_name") +
                     " is unknown to SDY sharding rule registry";
  } else if (!inTable && !deliberatelyWithoutRule(op)) {
    lookup.missing = RuleLookup::Missing::UnknownOp;
    lookup.warning = "op '" + std::string(op.name()) + "' is unknown to SDY sharding rule registry";
  }
  return lookup;
}

} // namespace

RuleLookup lookupShardingRule(const ir::Operation& op, const RuleOptions& options) {
  if (const auto* explicitRule = op.attr("sdy.sharding_rule").as<ir::ShardingRuleAttr>())
    return RuleLookup{explicitRule->rule, RuleLookup::Missing::None, {}};
  const auto& table = ruleTable();
  auto it = table.find(op.name());
  if (it == table.end())
    return withoutRule(op, /*inTable=*/false);
  if (std::optional<ir::OpShardingRule> rule = it->second(op, options))
    return RuleLookup{std::move(rule), RuleLookup::Missing::None, {}};
  return withoutRule(op, /*inTable=*/true);
}

std::optional<ir::OpShardingRule> shardingRuleFor(const ir::Operation& op,
                                                  const RuleOptions& options) {
  return lookupShardingRule(op, options).rule;
}

} // namespace shardscope::propagation
