// The dispatch of the explicit-sharding rules and the checks JAX wraps around every rule
// (`call_sharding_rule` / `call_shape_dtype_sharding_rule` in jax/_src/lax/utils.py): all
// inputs on one mesh, the unreduced rule, and no mesh axis used twice in a result.
#include "core/analysis/explicit_rules.h"

#include "core/analysis/detail/explicit_rule_support.h"

#include <algorithm>
#include <iterator>

namespace shardscope::analysis {

namespace {

using detail::RuleFn;
using detail::RuleInput;

// What JAX does with unreduced inputs of an op (its `ur_rule`).
enum class Unreduced {
  Generic,     // no ur_rule: `call_ur_rule` rejects any unreduced input
  Elementwise, // `unop_ur_rule` / `nary_ur_rule`: "unreduced rule ... is not implemented"
  Add,         // `_add_ur_rule`: both inputs unreduced over the same axes
  Keep,        // the result is unreduced like operand 0 (transpose, reshape, convert,
               // broadcast_in_dim: their rules update only the partitions of the spec)
  ByRule,      // the rule itself decides (dot_general, reshard, constants; concatenate's
               // operands share one sharding, unreduced axes included)
};

struct RuleEntry {
  std::string_view op;
  std::string_view jaxName;
  RuleFn fn;
  Unreduced unreduced;
};

using U = Unreduced;
using namespace detail;

// clang-format off
constexpr RuleEntry kRules[] = {
    // Nullary ops: unsharded unless given an `out_sharding`.
    {"stablehlo.constant", "constant", nullaryRule, U::ByRule},
    {"stablehlo.iota", "iota", nullaryRule, U::ByRule},
    // Unary elementwise ops (`standard_unop`): the result is sharded like the operand.
    {"stablehlo.abs", "abs", unaryRule, U::Elementwise},
    {"stablehlo.negate", "neg", unaryRule, U::Elementwise},
    {"stablehlo.sign", "sign", unaryRule, U::Elementwise},
    {"stablehlo.floor", "floor", unaryRule, U::Elementwise},
    {"stablehlo.ceil", "ceil", unaryRule, U::Elementwise},
    {"stablehlo.round_nearest_afz", "round", unaryRule, U::Elementwise},
    {"stablehlo.round_nearest_even", "round", unaryRule, U::Elementwise},
    {"stablehlo.is_finite", "is_finite", unaryRule, U::Elementwise},
    {"stablehlo.exponential", "exp", unaryRule, U::Elementwise},
    {"stablehlo.exponential_minus_one", "expm1", unaryRule, U::Elementwise},
    {"stablehlo.log", "log", unaryRule, U::Elementwise},
    {"stablehlo.log_plus_one", "log1p", unaryRule, U::Elementwise},
    {"stablehlo.logistic", "logistic", unaryRule, U::Elementwise},
    {"stablehlo.sine", "sin", unaryRule, U::Elementwise},
    {"stablehlo.cosine", "cos", unaryRule, U::Elementwise},
    {"stablehlo.tan", "tan", unaryRule, U::Elementwise},
    {"stablehlo.tanh", "tanh", unaryRule, U::Elementwise},
    {"stablehlo.sqrt", "sqrt", unaryRule, U::Elementwise},
    {"stablehlo.rsqrt", "rsqrt", unaryRule, U::Elementwise},
    {"stablehlo.cbrt", "cbrt", unaryRule, U::Elementwise},
    {"stablehlo.not", "not", unaryRule, U::Elementwise},
    {"stablehlo.popcnt", "population_count", unaryRule, U::Elementwise},
    {"stablehlo.count_leading_zeros", "clz", unaryRule, U::Elementwise},
    {"stablehlo.real", "real", unaryRule, U::Elementwise},
    {"stablehlo.imag", "imag", unaryRule, U::Elementwise},
    {"stablehlo.reduce_precision", "reduce_precision", unaryRule, U::Elementwise},
    {"stablehlo.reverse", "rev", unaryRule, U::Generic},
    {"chlo.square", "square", unaryRule, U::Elementwise},
    {"chlo.sinh", "sinh", unaryRule, U::Elementwise},
    {"chlo.cosh", "cosh", unaryRule, U::Elementwise},
    {"chlo.asin", "asin", unaryRule, U::Elementwise},
    {"chlo.acos", "acos", unaryRule, U::Elementwise},
    {"chlo.atan", "atan", unaryRule, U::Elementwise},
    {"chlo.asinh", "asinh", unaryRule, U::Elementwise},
    {"chlo.acosh", "acosh", unaryRule, U::Elementwise},
    {"chlo.atanh", "atanh", unaryRule, U::Elementwise},
    {"chlo.erf", "erf", unaryRule, U::Elementwise},
    {"chlo.erf_inv", "erf_inv", unaryRule, U::Elementwise},
    {"chlo.lgamma", "lgamma", unaryRule, U::Elementwise},
    {"chlo.digamma", "digamma", unaryRule, U::Elementwise},
    // `convert_element_type` keeps the operand's sharding unless given one.
    {"stablehlo.convert", "convert_element_type", unaryRule, U::Keep},
    // N-ary elementwise ops (`naryop`): `broadcasting_sharding_rule`.
    {"stablehlo.add", "add", naryRule, U::Add},
    {"stablehlo.subtract", "sub", naryRule, U::Elementwise},
    {"stablehlo.multiply", "mul", naryRule, U::Elementwise},
    {"stablehlo.divide", "div", naryRule, U::Elementwise},
    {"stablehlo.remainder", "rem", naryRule, U::Elementwise},
    {"stablehlo.maximum", "max", naryRule, U::Elementwise},
    {"stablehlo.minimum", "min", naryRule, U::Elementwise},
    {"stablehlo.power", "pow", naryRule, U::Elementwise},
    {"stablehlo.atan2", "atan2", naryRule, U::Elementwise},
    {"stablehlo.and", "and", naryRule, U::Elementwise},
    {"stablehlo.or", "or", naryRule, U::Elementwise},
    {"stablehlo.xor", "xor", naryRule, U::Elementwise},
    {"stablehlo.shift_left", "shift_left", naryRule, U::Elementwise},
    {"stablehlo.shift_right_arithmetic", "shift_right_arithmetic", naryRule, U::Elementwise},
    {"stablehlo.shift_right_logical", "shift_right_logical", naryRule, U::Elementwise},
    {"stablehlo.complex", "complex", naryRule, U::Elementwise},
    {"stablehlo.compare", "compare", naryRule, U::Elementwise},
    {"chlo.next_after", "nextafter", naryRule, U::Elementwise},
    {"stablehlo.select", "select_n", selectRule, U::Generic},
    {"stablehlo.clamp", "clamp", clampRule, U::Generic},
    // Shape ops.
    {"stablehlo.reshape", "reshape", reshapeRule, U::Keep},
    {"stablehlo.transpose", "transpose", transposeRule, U::Keep},
    {"stablehlo.broadcast_in_dim", "broadcast_in_dim", broadcastInDimRule, U::Keep},
    {"stablehlo.concatenate", "concatenate", concatenateRule, U::ByRule},
    {"stablehlo.reduce", "reduce", reduceRule, U::Generic},
    {"stablehlo.slice", "slice", sliceRule, U::Generic},
    {"stablehlo.pad", "pad", padRule, U::Generic},
    {"stablehlo.dynamic_slice", "dynamic_slice", dynamicSliceRule, U::Elementwise},
    {"stablehlo.dynamic_update_slice", "dynamic_update_slice", dynamicUpdateSliceRule, U::ByRule},
    // Contractions.
    {"stablehlo.dot_general", "dot_general", dotGeneralRule, U::ByRule},
    {"stablehlo.dot", "dot_general", dotGeneralRule, U::ByRule},
    // Ops that set the type: JAX's `reshard` (and `with_sharding_constraint`).
    {"sdy.reshard", "reshard", reshardRule, U::ByRule},
    {"sdy.sharding_constraint", "sharding_constraint", reshardRule, U::ByRule},
    // Ops that pass their operands' types through.
    {"stablehlo.optimization_barrier", "optimization_barrier", passthroughRule, U::ByRule},
    {"sdy.data_flow_edge", "data_flow_edge", passthroughRule, U::ByRule},
    {"sdy.propagation_barrier", "propagation_barrier", passthroughRule, U::ByRule},
};
// clang-format on

const RuleEntry* findRule(std::string_view name) {
  auto it = std::find_if(std::begin(kRules), std::end(kRules),
                         [&](const RuleEntry& e) { return e.op == name; });
  return it == std::end(kRules) ? nullptr : &*it;
}

// `_get_abstract_mesh_from_avals`: all inputs on a mesh must be on the same one.
std::optional<JaxError> checkSameMesh(const RuleInput& in) {
  const ExplicitType* first = nullptr;
  for (const ExplicitType& t : in.operands) {
    if (t.mesh.empty())
      continue;
    if (first && first->mesh != t.mesh) {
      const AxisTypes& types = in.context.axisTypes;
      return JaxError{
          "ValueError",
          "Mesh for all inputs should be equal. Got one mesh: " +
              abstractMeshRepr(detail::meshNamed(in.context, first->mesh), first->mesh, types) +
              " and another mesh: " +
              abstractMeshRepr(detail::meshNamed(in.context, t.mesh), t.mesh, types)};
    }
    first = first ? first : &t;
  }
  return std::nullopt;
}

// `_add_ur_rule`: unreduced inputs may be added only to inputs unreduced over the same axes.
std::optional<JaxError> addUnreduced(const RuleInput& in, std::vector<ir::AxisRef>& out) {
  const auto& x = in.operands[0].unreduced;
  const auto& y = in.operands[1].unreduced;
  if (!x.empty() && !y.empty()) {
    if (x != y)
      return JaxError{"ShardingTypeError",
                      "lhs and rhs to `add` must be unreduced along the same mesh axes. Got lhs=" +
                          detail::frozensetRepr(x) + ", rhs=" + detail::frozensetRepr(y)};
    out = x;
  } else if (!x.empty() || !y.empty()) {
    std::string lhs = x.empty() ? "rhs" : "lhs", rhs = x.empty() ? "lhs" : "rhs";
    return JaxError{"ShardingTypeError",
                    lhs + " is unreduced while " + rhs +
                        " is not. `add` operation does not allow "
                        "this because there will be implicit communication. Please reduce " +
                        lhs + " via `reshard` before calling `add`."};
  }
  return std::nullopt;
}

bool anyUnreduced(std::span<const ExplicitType> types) {
  return std::any_of(types.begin(), types.end(),
                     [](const ExplicitType& t) { return !t.unreduced.empty(); });
}

// The unreduced part of the result types (JAX's `call_ur_rule` and the op's `ur_rule`).
std::optional<JaxError> applyUnreduced(const RuleInput& in, Unreduced policy,
                                       std::vector<ExplicitType>& results) {
  const std::string issue = " is not implemented. Please file an issue at "
                            "https://github.com/jax-ml/jax/issues";
  switch (policy) {
  case Unreduced::ByRule:
    return std::nullopt;
  case Unreduced::Keep:
    for (ExplicitType& r : results)
      if (r.unreduced.empty() && !in.operands.empty())
        r.unreduced = in.operands[0].unreduced;
    return std::nullopt;
  case Unreduced::Add:
    if (in.operands.size() == 2)
      return addUnreduced(in, results[0].unreduced);
    [[fallthrough]];
  case Unreduced::Elementwise:
    if (anyUnreduced(in.operands))
      return JaxError{"NotImplementedError", "unreduced rule for " + in.primitive + issue};
    return std::nullopt;
  case Unreduced::Generic:
    if (anyUnreduced(in.operands) || anyUnreduced(results))
      return JaxError{"NotImplementedError", "unreduced/reduced rule for " + in.primitive + issue};
    return std::nullopt;
  }
  return std::nullopt;
}

// `call_shape_dtype_sharding_rule`: a result that names an axis twice is illegal.
std::optional<JaxError> checkDuplicates(const RuleInput& in,
                                        const std::vector<ExplicitType>& results) {
  for (const ExplicitType& result : results) {
    if (duplicateAxes(result).empty())
      continue;
    std::string inputs;
    for (size_t i = 0; i < in.operands.size(); ++i)
      inputs += (i ? ", " : "") + shortTypeStr(in.operands[i]);
    return JaxError{"ShardingTypeError",
                    in.primitive + " operation with inputs: " + inputs +
                        " produces an illegally sharded result: " + shortTypeStr(result)};
  }
  return std::nullopt;
}

RuleOutcome fail(JaxError error) {
  return detail::rejected(std::move(error.exception), std::move(error.message));
}

} // namespace

std::string jaxPrimitiveName(const ir::Operation& op) {
  if (op.is("stablehlo.compare")) {
    std::string direction = detail::enumCase(op, "comparison_direction");
    for (char& c : direction)
      c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return direction.empty() ? "compare" : direction;
  }
  if (const RuleEntry* entry = findRule(op.name()))
    return std::string(entry->jaxName);
  std::string_view name = op.name();
  size_t dot = name.find('.');
  return std::string(dot == std::string_view::npos ? name : name.substr(dot + 1));
}

RuleOutcome applyExplicitRule(const ir::Operation& op, std::span<const ExplicitType> operands,
                              const RuleContext& context) {
  const RuleEntry* entry = findRule(op.name());
  if (!entry)
    return {};
  RuleInput in{op, operands, context, jaxPrimitiveName(op)};
  if (std::optional<JaxError> error = checkSameMesh(in))
    return fail(std::move(*error));
  RuleOutcome outcome = entry->fn(in);
  if (outcome.status != RuleOutcome::Status::Typed)
    return outcome;
  if (std::optional<JaxError> error = checkDuplicates(in, outcome.results))
    return fail(std::move(*error));
  if (std::optional<JaxError> error = applyUnreduced(in, entry->unreduced, outcome.results))
    return fail(std::move(*error));
  return outcome;
}

} // namespace shardscope::analysis
