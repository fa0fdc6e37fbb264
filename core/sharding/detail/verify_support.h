#pragma once

// Internal helpers shared by the verifier's translation units. Not part of the module's API.

#include "core/ir/module.h"
#include "core/ir/mesh_resolver.h"
#include "core/sharding/mesh_view.h"
#include "core/sharding/value_sharding.h"
#include "core/support/diagnostic.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shardscope::sharding::detail {

/// Reports errors as `prefix + message` at one location, like MLIR's `emitOpError` with a
/// message prefix. Every call returns false so checks can `return emit(...)`.
class ErrorEmitter {
public:
  ErrorEmitter(support::DiagnosticSink& sink, support::SourceLocation loc, std::string prefix = {})
      : m_sink(&sink), m_loc(loc), m_prefix(std::move(prefix)) {}

  /// Reports `prefix + message` (with `notes`) as an error; returns false.
  bool operator()(const std::string& message,
                  std::vector<support::DiagnosticNote> notes = {}) const;
  /// Returns an emitter whose prefix is this prefix followed by `more`.
  ErrorEmitter extended(std::string_view more) const {
    ErrorEmitter out(*this);
    out.m_prefix += more;
    return out;
  }
  support::DiagnosticSink& sink() const { return *m_sink; }
  support::SourceLocation loc() const { return m_loc; }

private:
  friend ErrorEmitter opError(const ir::Operation& op, support::DiagnosticSink& sink);

  support::DiagnosticSink* m_sink;
  support::SourceLocation m_loc;
  // An emitter of `opError` starts its prefix with `'<op name>' op `, spelled out only when an
  // error is reported: every op with a sharding gets an emitter, nearly none reports.
  std::string_view m_opName;
  bool m_hasOpName = false;
  std::string m_prefix;
};

/// The emitter of `op->emitOpError(...)`: prefix `'<op name>' op `, at the op's location.
ErrorEmitter opError(const ir::Operation& op, support::DiagnosticSink& sink);
/// Shardy's per-value prefix: `- ` when there is one value, else `<index> - `.
ErrorEmitter valueEmitter(const ErrorEmitter& emit, size_t numValues, size_t index);

/// What every check needs: the module (for mesh symbols) and the sink.
struct VerifyContext {
  const ir::Module& module;
  support::DiagnosticSink& sink;

  /// The mesh of `sharding` (inline, or the module's mesh symbol), or null (the module doesn't
  /// change while it is verified).
  const ir::Mesh* meshOf(const ir::TensorSharding& sharding) const { return meshes(sharding); }

  mutable ir::MeshResolver meshes{module};
};

/// A manual axis bound by an enclosing `sdy.manual_computation`.
struct ManualAxisOwner {
  std::string axis;
  const ir::Operation* owner = nullptr;
};

/// The manual axes bound by the `sdy.manual_computation` ops enclosing `op` (not `op` itself).
/// When several bind the same axis, the outermost wins, as in Shardy.
std::vector<ManualAxisOwner> parentManualAxes(const ir::Operation& op);

/// A type as MLIR diagnostics print it: `'tensor<8xf32>'`.
std::string quotedType(ir::Type type);
/// A comma-separated list of quoted types.
std::string quotedTypes(std::span<const ir::Type> types);
/// Returns true for types MLIR treats as shaped (ranked or unranked tensors).
bool isShapedType(ir::Type type);
/// Returns true for an unranked tensor type (`tensor<*xf32>`).
bool isUnrankedTensor(ir::Type type);
/// Returns true when every dimension of `sharding` has no axes.
bool isFullyReplicated(const ir::TensorSharding& sharding);
/// The reduction kind of `sharding`'s unreduced axes as Shardy prints it (`sum` by default).
std::string reductionKindName(const ir::TensorSharding& sharding);
/// The operand types of the terminator of `op`'s first region (empty without a body).
std::vector<ir::Type> terminatorOperandTypes(const ir::Operation& op);

// --- Shardings (verify_sharding.cpp) ------------------------------------------------------------

/// MeshAttr::verify: axis names, device ids. `emit` carries the caller's prefix.
bool verifyMesh(const ir::Mesh& mesh, const ErrorEmitter& emit);

/// The axis refs seen so far while verifying one sharding or one collective's axes.
struct AxisRefTracker {
  std::vector<ir::AxisRef> seen;
  /// Sub-axes per axis name, in first-seen order of the names.
  std::vector<std::pair<std::string, std::vector<ir::AxisRef>>> subAxes;
};
/// Verifies one axis ref list: known names, no duplicates (also w.r.t. `tracker`), no two adjacent
/// sub-axes that could be merged.
bool verifyAxisRefList(std::span<const ir::AxisRef> axes, const MeshView& mesh,
                       AxisRefTracker& tracker, const ErrorEmitter& emit);
/// `verifyAxisRefList` after checking that `axes` are sorted w.r.t. the mesh
/// (`<what> axes are not ordered w.r.t. mesh`).
bool verifySortedAxisRefList(std::span<const ir::AxisRef> axes, const MeshView& mesh,
                             AxisRefTracker& tracker, const ErrorEmitter& emit,
                             std::string_view what);
/// Verifies every sub-axis collected in `tracker` (sizes, divisibility, overlaps).
bool verifySubAxes(const AxisRefTracker& tracker, const MeshView& mesh, const ErrorEmitter& emit);

/// Verifies `sharding` against value type `type` (null for an op without results) and `mesh`.
bool verifyTensorSharding(const ir::TensorSharding& sharding, ir::Type type, const ir::Mesh& mesh,
                          const ErrorEmitter& emit, std::span<const ManualAxisOwner> manualParents);
/// Resolves the mesh of `sharding` ("unknown mesh" otherwise) and verifies it for a value of
/// `type` attached to `op`, honouring the manual axes bound around `op`.
bool verifyShardingForOp(const VerifyContext& ctx, const ir::TensorSharding& sharding,
                         ir::Type type, const ir::Operation& op, const ErrorEmitter& emit);
/// Verifies a list of shardings for values of `types` attached to `op`.
bool verifyShardingList(const VerifyContext& ctx, std::span<const ir::TensorSharding> shardings,
                        std::span<const ir::Type> types, const ir::Operation& op,
                        const ErrorEmitter& emit);
/// Verifies the `sdy.sharding` entries of a function's argument and result attributes.
bool verifyFuncShardings(const VerifyContext& ctx, const ir::Operation& func);

// --- Unreduced axes (verify_unreduced.cpp) -------------------------------------------------------

/// What an op may do to the unreduced axes of its values: `introducedKind` is the reduction
/// operator new unreduced axes must have (none: the op can't introduce any), `removedKind` the
/// one the axes it drops must have (none: it can't drop any). Null shardings are skipped.
struct UnreducedTransition {
  std::span<const ir::TensorSharding* const> operands;
  std::span<const ir::TensorSharding* const> results;
  std::optional<std::string> introducedKind;
  std::optional<std::string> removedKind;
};
/// Shardy's `verifyUnreducedAxesTransition`: introduced, then removed, then kept axes.
bool verifyUnreducedAxesTransition(const VerifyContext& ctx, const ErrorEmitter& emit,
                                   const UnreducedTransition& transition);
/// The sharding of `value` as Shardy's `getShardingBypassingBarriers` finds it: through
/// `sdy.propagation_barrier` ops to their input. Null when the value has none.
const ir::TensorSharding* shardingBypassingBarriers(const ir::Value& value,
                                                    std::optional<ir::TensorSharding>& storage);

// --- Ops (verify_ops.cpp)
// -------------------------------------------------------------------------

/// Verifies what the `verify()` hooks of the sdy ops other than collectives check (MLIR runs them
/// while walking the module).
bool verifySdyOpInvariants(const VerifyContext& ctx, const ir::Operation& op);
/// Verifies what the `verifySymbolUses` hooks of the sdy ops other than collectives check (MLIR
/// runs them after the whole module passed `verify()`, when leaving the module).
bool verifySdyOpSymbolUses(const VerifyContext& ctx, const ir::Operation& op);
/// Verifies that the body of an isolated-from-above sdy op only uses values defined inside it.
bool verifyIsolation(const VerifyContext& ctx, const ir::Operation& op);

// --- Collectives (verify_collectives.cpp)
// ---------------------------------------------------------

/// Verifies what every collective checks in `verify()` (Shardy's `verifyCollectiveOp`).
bool verifyCollectiveInvariants(const VerifyContext& ctx, const ir::Operation& op);
/// Verifies a collective's own `verifySymbolUses` checks. Precondition: its invariants hold.
bool verifyCollectiveSymbolUses(const VerifyContext& ctx, const ir::Operation& op);

// --- Discardable attributes (verify_rules.cpp)
// ----------------------------------------------------

/// Verifies the Shardy discardable attribute `name` of `op` (`sdy.sharding`,
/// `sdy.sharding_rule`, `sdy.*propagation_edges`). Other names pass.
bool verifyDiscardableAttr(const VerifyContext& ctx, const ir::Operation& op, std::string_view name,
                           const ir::Attribute& value);
/// Verifies what MLIR checks while parsing a `#sdy.propagation_edges` attribute (step indices,
/// sources and targets). `text` is the attribute as written.
bool verifyPropagationEdgesSyntax(std::string_view text, const ErrorEmitter& emit);

} // namespace shardscope::sharding::detail
