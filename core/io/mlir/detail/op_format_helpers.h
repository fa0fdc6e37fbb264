#pragma once

#include "core/io/mlir/detail/op_format.h"
#include "core/io/mlir/detail/parser.h"
#include "core/io/mlir/detail/printer.h"

#include <functional>
#include <initializer_list>

namespace shardscope::io::mlir::detail {

/// Parses an optional `{...}` and adds its entries to `s` as discardable attributes.
bool parseAttrDictInto(Parser& p, OperationState& s);

/// Parses `: type` for an op whose operands and single result all have `type`.
bool parseSameTypeSingle(Parser& p, OperationState& s,
                         const std::vector<UnresolvedOperand>& operands);

/// Parses `: type` or `: (types) -> type` (MLIR's SameOperandsAndResultType directive): a single
/// type means every operand and the one result have it.
bool parseSameOrFunctionalType(Parser& p, OperationState& s,
                               const std::vector<UnresolvedOperand>& operands);

/// Parses `: (types) -> results` and resolves `operands` against the input types.
bool parseFunctionalTypeFor(Parser& p, OperationState& s,
                            const std::vector<UnresolvedOperand>& operands);

/// Callback used to add formats to the registry.
using AddFormat = std::function<void(OpFormat)>;

/// Adds the formats of the StableHLO ops (op_formats_stablehlo.cpp).
void registerStablehloFormats(const AddFormat& add);

/// Adds the formats of StableHLO's test dialects `check` and `interpreter`
/// (op_formats_check.cpp).
void registerCheckFormats(const AddFormat& add);

} // namespace shardscope::io::mlir::detail
