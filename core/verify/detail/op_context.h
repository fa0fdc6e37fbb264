#pragma once

// Shared pieces of the StableHLO verifier: the context one op's rule runs in, the rule table
// each op family fills, and the small shape and attribute helpers the rules share.

#include "core/ir/module.h"
#include "core/ir/operation.h"
#include "core/ir/stablehlo_attrs.h"
#include "core/support/diagnostic.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace shardscope::verify::detail {

/// What one op's rule sees: the op, its module and where errors go.
struct OpContext {
  const ir::Module& module;
  const ir::Operation& op;
  support::DiagnosticSink& sink;

  /// Reports `message` at the op as StableHLO's `emitOptionalError(location, ...)` does (no op
  /// prefix). Returns false so that rules can `return ctx.error(...)`.
  bool error(const std::string& message) const;
  /// Reports `'<op name>' op <message>` as MLIR's `emitOpError` does. Returns false.
  bool opError(const std::string& message) const;

  /// Operand `i`'s type, result `i`'s type.
  ir::Type operandType(unsigned i) const { return op.operand(i)->type(); }
  ir::Type resultType(unsigned i) const { return op.result(i)->type(); }

  /// The integer attribute `name`; nothing when absent or not an integer.
  std::optional<int64_t> intAttr(std::string_view name) const;
  /// The integer list attribute `name` (`array<i64: ...>`, `dense<...>`, `[...]`).
  std::optional<std::vector<int64_t>> intList(std::string_view name) const;
  /// `intList(name)` or, when absent, an empty list (optional attributes that default to none).
  std::vector<int64_t> intListOrEmpty(std::string_view name) const;
  /// Reports ODS's `requires attribute '<name>'` and returns false.
  bool missingAttr(std::string_view name) const;
};

/// A rule: returns true when the op obeys it, otherwise reports one error and returns false.
using OpRule = bool (*)(const OpContext&);

/// The rules of one op, in MLIR's verification order: `entry` holds the ODS constraints, the
/// native traits and the op's `verify()`, checked before the ops nested in its regions; `infer`
/// is its type inference (`InferTypeOpInterface` verifies with regions, so after the nested
/// ops). A failed inference is followed by MLIR's `failed to infer returned types`.
struct OpRules {
  OpRule entry = nullptr;
  OpRule infer = nullptr;
};
/// Rules by op name.
using RuleTable = std::unordered_map<std::string_view, OpRules>;

void addElementwiseRules(RuleTable& table);
void addShapeRules(RuleTable& table);
void addSlicingRules(RuleTable& table);
void addContractionRules(RuleTable& table);
void addCollectiveRules(RuleTable& table);
void addRegionRules(RuleTable& table);
void addGatherRules(RuleTable& table);
void addLinalgRules(RuleTable& table);
void addWindowRules(RuleTable& table);
void addIoRules(RuleTable& table);
void addInterpreterRules(RuleTable& table);
void addAsyncRules(RuleTable& table);
void addChloRules(RuleTable& table);

/// Checks `func.call` against its callee and `func.return` against its function, with MLIR's
/// messages. Returns false after reporting the first error.
bool verifyCall(const OpContext& ctx);
bool verifyComposite(const OpContext& ctx);
bool verifyFuncReturn(const OpContext& ctx);

// ---- Shapes ----------------------------------------------------------------------------------

/// True for a ranked tensor type ShardScope interprets (not quantized, not unranked).
inline bool isTensor(ir::Type type) { return type && type.isTensor(); }
/// True when every operand and result of `op` is a ranked tensor.
bool allTensors(const ir::Operation& op);
/// True when `size` is a static dimension size.
inline bool isStaticDim(int64_t size) { return size != ir::kDynamicSize; }
/// MLIR's `verifyCompatibleDims`: equal, or either is dynamic.
inline bool compatibleDims(int64_t a, int64_t b) {
  return !isStaticDim(a) || !isStaticDim(b) || a == b;
}
/// MLIR's `verifyCompatibleShape` on two shapes: same rank and pairwise compatible dims.
bool compatibleShapes(std::span<const int64_t> a, std::span<const int64_t> b);
/// StableHLO's `isCompatibleForHloTypeInference`: compatible shapes and equal element types;
/// tuples element by element; types ShardScope does not interpret are compatible with anything.
bool compatibleTypes(ir::Type a, ir::Type b);
/// Element type equality where both are tensors; true otherwise.
bool sameElementType(ir::Type a, ir::Type b);

/// `1, 0, 3`: a list as MLIR streams an `ArrayRef<int64_t>` into a diagnostic.
std::string joinInts(std::span<const int64_t> values);
/// `[2, ?, 3]`: a shape as StableHLO's `dimSizesToString` prints it.
std::string dimsString(std::span<const int64_t> dims);
/// `'tensor<2x3xf32>'`: a type as MLIR quotes it in a diagnostic.
std::string quoted(ir::Type type);
/// `'a', 'b'`: a type list as MLIR prints a `TypeRange` in a diagnostic.
std::string quotedList(std::span<const ir::Type> types);

/// Compares the types a rule inferred with the op's result types, as MLIR's
/// `verifyInferredResultTypes` does (`inferred type(s) ... are incompatible with return type(s)
/// of operation ...`). Returns false after reporting.
bool checkInferredTypes(const OpContext& ctx, const std::vector<ir::Type>& inferred);
/// `checkInferredTypes` for one inferred tensor of `shape` and `element`.
bool checkInferredTensor(const OpContext& ctx, std::span<const int64_t> shape,
                         ir::ElementType element);

/// StableHLO's `inferMostSpecificType` over ranked tensor `types`: equal ranks (`Mismatched ranks
/// of types...`) and sizes (`Mismatched dimension sizes ...`); a static size wins over a dynamic
/// one, and the element type is the first type's. Returns nothing after reporting.
std::optional<ir::Type> inferMostSpecificType(const OpContext& ctx,
                                              std::span<const ir::Type> types);

/// Checks ODS's `SameOperandsAndResultElementType` (`requires the same element type for all
/// operands and results`) over the ranked tensor operands and results of `ctx.op`.
bool checkSameElementTypes(const OpContext& ctx);
/// Checks `HLO_CompatibleOperandsAndResultElementType`.
bool checkCompatibleElementTypes(const OpContext& ctx);
/// Checks `HLO_CompatibleOperandsAndResultType` (`requires compatible types for all operands
/// and results`).
bool checkCompatibleTypes(const OpContext& ctx);
/// Checks `SameOperandsAndResultShape` (`requires the same shape for all operands and results`).
bool checkSameShapes(const OpContext& ctx);
/// Checks MLIR's `Elementwise` trait over ranked tensors (`all non-scalar operands/results must
/// have the same shape and base type`).
bool checkElementwise(const OpContext& ctx);

// ---- Contractions ----------------------------------------------------------------------------

/// StableHLO's `checkDotGeneralConstraints` (`dot_general_c1`...`c11`) on an lhs and rhs of the
/// shapes `lhs` and `rhs` with dimension numbers `dn`; `chlo.ragged_dot` shares it. Returns false
/// after reporting.
bool checkDotGeneralConstraints(const OpContext& ctx, std::span<const int64_t> lhs,
                                std::span<const int64_t> rhs,
                                const ir::stablehlo::DotDimensionNumbers& dn);
/// StableHLO's `checkDimsDistinct`: no dimension in both or twice in `a` and `b` (`has
/// duplicated dimension from <aName> and <bName>: <dim>`).
bool checkDimsDistinct(const OpContext& ctx, std::span<const int64_t> a,
                       std::span<const int64_t> b, std::string_view aName,
                       std::string_view bName);

/// The integers of `value` when a `stablehlo.constant` defines it (StableHLO's `matchInts`);
/// nothing otherwise.
std::optional<std::vector<int64_t>> constantInts(const ir::Value* value);

/// Checks StableHLO's `verifyReplicaGroups` on the attribute `name` of `ctx.op` (nothing to
/// check when it is absent or not a dense integer tensor).
bool checkReplicaGroups(const OpContext& ctx, std::string_view name, bool allGroupsSameSize,
                        bool useGlobalDeviceIds, std::optional<int64_t> expectedGroupSize);

/// StableHLO's `verifyReducerShape`: the reduction body `block` of an op reducing `inputs` from
/// `inits`, whose body arguments may keep the dims `allowedDims`. Returns false after reporting.
bool checkReducerShape(const OpContext& ctx, const ir::Block& block,
                       std::span<const ir::Type> inputs, std::span<const ir::Type> inits,
                       std::span<const int64_t> allowedDims);

/// The element types of the values the reduction body of `ctx.op` returns (its accumulator
/// types); empty when it has no body.
std::vector<ir::Type> accumulatorTypes(const ir::Operation& op);

} // namespace shardscope::verify::detail
