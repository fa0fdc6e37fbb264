#pragma once

// Shared pieces of the explicit-sharding rules (`explicit_rules*.cpp`). Internal to core/analysis.

#include "core/analysis/explicit_rules.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::analysis::detail {

/// One rule application: the op, its operand types and the context.
struct RuleInput {
  const ir::Operation& op;
  std::span<const ExplicitType> operands;
  const RuleContext& context;
  /// JAX's primitive name of the op (for messages).
  std::string primitive;
};

/// A rule: result types, or JAX's error.
using RuleFn = RuleOutcome (*)(const RuleInput&);

RuleOutcome typed(std::vector<ExplicitType> results);
RuleOutcome rejected(std::string exception, std::string message);

/// JAX's `ShardingTypeError`.
inline RuleOutcome shardingTypeError(std::string message) {
  return rejected("ShardingTypeError", std::move(message));
}

/// The mesh named `name` in the module, or null.
const ir::Mesh* meshNamed(const RuleContext& context, std::string_view name);
/// The number of devices `dim` splits a dimension into (product of its axis sizes) on `mesh`.
int64_t specSize(const RuleContext& context, std::string_view mesh, const DimSpec& dim);
/// The mesh the result of an op on `operands` lives on: the first operand mesh, else the
/// context mesh.
std::string resultMesh(const RuleInput& in);

/// The type of result `index` with dimension specs `dims` on the result mesh.
ExplicitType resultType(const RuleInput& in, unsigned index, std::vector<DimSpec> dims);
/// The op's own `sdy.sharding` for result `index` as a JAX type (JAX's `out_sharding`), or
/// nothing when the op has none.
std::optional<ExplicitType> outSharding(const RuleInput& in, unsigned index);

/// An integer-list attribute (`array<i64: ...>`, `[1, 2]`, `dense<...>`) of `op`.
std::optional<std::vector<int64_t>> intListAttr(const ir::Operation& op, std::string_view name);
/// An integer attribute of `op`.
std::optional<int64_t> intAttr(const ir::Operation& op, std::string_view name);
/// The case of an enum attribute `#stablehlo<kind CASE>`; empty when absent.
std::string enumCase(const ir::Operation& op, std::string_view name);

/// Python's `str(tuple)` of integers: `(4, 2)`, `(16,)`.
std::string intTupleRepr(std::span<const int64_t> values);
/// JAX's `repr(aval)`: `ShapedArray(float32[4@X,8])`.
std::string avalRepr(const ExplicitType& type);
/// Python's `repr(frozenset)` of axis names, in mesh order (Python's own order is a hash order):
/// `frozenset({'X', 'Y'})`, `frozenset()`.
std::string frozensetRepr(const std::vector<ir::AxisRef>& axes);

// Rules by family; each file documents the JAX functions it follows.
RuleOutcome nullaryRule(const RuleInput& in);     // constant, iota
RuleOutcome unaryRule(const RuleInput& in);       // sin, neg, convert, ...
RuleOutcome naryRule(const RuleInput& in);        // add, mul, compare, ...
RuleOutcome selectRule(const RuleInput& in);      // select -> select_n
RuleOutcome clampRule(const RuleInput& in);       // clamp
RuleOutcome passthroughRule(const RuleInput& in); // optimization_barrier, data_flow_edge
RuleOutcome reshardRule(const RuleInput& in);     // sdy.reshard, sharding_constraint
RuleOutcome reshapeRule(const RuleInput& in);
RuleOutcome transposeRule(const RuleInput& in);
RuleOutcome broadcastInDimRule(const RuleInput& in);
RuleOutcome concatenateRule(const RuleInput& in);
RuleOutcome reduceRule(const RuleInput& in);
RuleOutcome sliceRule(const RuleInput& in);
RuleOutcome padRule(const RuleInput& in);
RuleOutcome dynamicSliceRule(const RuleInput& in);
RuleOutcome dynamicUpdateSliceRule(const RuleInput& in);
RuleOutcome dotGeneralRule(const RuleInput& in); // dot_general and dot

} // namespace shardscope::analysis::detail
