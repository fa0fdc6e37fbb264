// Shardy's model of data-flow ops and of where the sharding of a value lives, as the import
// passes (and their export counterparts) need it.
//
// A data-flow op forwards values without computing on them: `stablehlo.while`, `stablehlo.case`,
// `stablehlo.optimization_barrier`, `sdy.manual_computation` and `sdy.named_computation`. Each
// of their data-flow edges has an *owner* value that holds the edge's sharding (an op result, or
// a body argument of manual/named computations) and *targets* that share it (for `while`, the
// result and the matching `cond`/`body` arguments). `-sdy-add-data-flow-edges` puts an
// `sdy.data_flow_edge` op on every owner so propagation can treat the edge like an op.
//
// `shardingOf` / `setSharding` follow Shardy's `getSharding` / `setSharding`: the sharding of a
// value is found through its data-flow edge when it has one, else on the function argument, the
// op's own sharding parameter (`sharding`, `out_sharding`), the data-flow op's owner sharding, or
// the op's `sdy.sharding` list.
#pragma once

#include "core/ir/module.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace shardscope::propagation {

/// The op defining `value`, or the op whose region has `value` as a block argument.
ir::Operation* owningOp(const ir::Value& value);

/// Returns true for the data-flow ops listed above.
bool isDataFlowOp(const ir::Operation& op);

/// Returns true for the data-flow ops whose body arguments own edges: `sdy.manual_computation`
/// and `sdy.named_computation`.
bool isRegionDataFlowOp(const ir::Operation& op);

/// The result edge owners of data-flow op `op` (its results; none for other ops).
std::vector<ir::Value*> resultEdgeOwners(const ir::Operation& op);
/// The block-argument edge owners of `op`: the body arguments of manual/named computations.
std::vector<ir::Value*> blockArgEdgeOwners(const ir::Operation& op);

/// The edge owner of `target` when its owning op is a data-flow op (a `while` body argument maps
/// to the matching result), else null.
ir::Value* edgeOwnerOfTarget(const ir::Value& target);

/// The `sdy.data_flow_edge` that is the only user of `owner`, or null.
ir::Operation* dataFlowEdgeUser(const ir::Value* owner);
/// Shardy's `DataFlowEdgeOp::lookup`: the data-flow edge of the edge `target` belongs to, or null.
ir::Operation* lookupDataFlowEdge(const ir::Value& target);

/// Shardy's `getShardableValue`: the value a sharding of `value` is attached to (the edge's result
/// when `value` has a data-flow edge), or null when none can be (scalar region arguments such as
/// those of a reduction body).
ir::Value* shardableValue(ir::Value& value);

/// The sharding of `value`, wherever it is stored, or nothing.
std::optional<ir::TensorSharding> shardingOf(ir::Value& value);
/// Stores `sharding` as the sharding of `value`. Precondition: `shardableValue(value)` is
/// non-null.
void setSharding(ir::Value& value, const ir::TensorSharding& sharding);

/// The owner shardings of a data-flow op, one per owner, or empty when the op has none (no
/// `sdy.sharding`, no `in_shardings`...). Manual computations report body-side shardings (without
/// manual axes).
std::vector<ir::TensorSharding> blockArgOwnerShardings(const ir::Operation& op);
std::vector<ir::TensorSharding> resultOwnerShardings(const ir::Operation& op);
/// Replaces all owner shardings of a data-flow op (body-side shardings for manual computations,
/// whose manual axes are re-added).
void setBlockArgOwnerShardings(ir::Operation& op, std::vector<ir::TensorSharding> shardings);
void setResultOwnerShardings(ir::Operation& op, std::vector<ir::TensorSharding> shardings);

/// The `manual_axes` of a `sdy.manual_computation` (empty for other ops).
std::vector<std::string> manualAxesOf(const ir::Operation& op);
/// The `sdy.sharding` list of `op`, or empty.
std::vector<ir::TensorSharding> shardingsOf(const ir::Operation& op);

/// Rank of a tensor value's type; 0 for scalars, tokens and other types.
int64_t rankOf(const ir::Value& value);

// --- IR editing helpers ----------------------------------------------------------------------

/// Inserts `op` right after the op defining `value`, or at the start of the block of a block
/// argument (MLIR's `setInsertionPointAfterValue`). Returns the inserted op.
ir::Operation* insertAfterValue(const ir::Value& value, std::unique_ptr<ir::Operation> op);
/// Moves `op` right after `value`'s definition (or to the start of its block).
void moveAfterValue(ir::Operation& op, const ir::Value& value);
/// Makes every use of `from` except those by `except` use `to`.
void replaceAllUsesExcept(ir::Value& from, ir::Value* to, const ir::Operation* except);
/// Returns true when `a` comes before `b` in the same block.
bool isBeforeInBlock(const ir::Operation& a, const ir::Operation& b);
/// Every op nested in `root` (not `root` itself), children before parents (MLIR's default walk).
std::vector<ir::Operation*> postOrderOps(ir::Operation& root);
/// Every op nested in `root` (not `root` itself), parents before children.
std::vector<ir::Operation*> preOrderOps(ir::Operation& root);

} // namespace shardscope::propagation
