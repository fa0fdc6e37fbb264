#pragma once
// Internal to core/import/chlo: builds the StableHLO ops a CHLO op is lowered to, in the storage
// conventions the MLIR printer and the interpreter read (dimension lists as `array<i64: ...>`,
// enums and dimension numbers as opaque `#stablehlo...` text). Not included from outside the
// module.

#include "core/ir/operation.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::import_::chlo::detail {

/// Inserts ops before a fixed op of a block, or appends them to a block. Every op gets the
/// source and debug locations of the op being lowered, so diagnostics and the GUI point back at
/// the CHLO op.
class HloEmitter {
public:
  /// Inserts before `before`, with its locations.
  explicit HloEmitter(ir::Operation& before);
  /// Appends to `block`, with the locations of `origin`.
  HloEmitter(ir::Block& block, const ir::Operation& origin);

  /// Inserts `name(operands) -> resultTypes` with inherent attributes `attrs`; returns the op.
  ir::Operation* create(std::string_view name, std::span<ir::Value* const> operands,
                        std::span<const ir::Type> resultTypes,
                        std::vector<ir::NamedAttribute> attrs = {});
  /// `create` for one result; returns it.
  ir::Value* create1(std::string_view name, std::vector<ir::Value*> operands, ir::Type type,
                     std::vector<ir::NamedAttribute> attrs = {});

  /// A constant of integer `type` holding `values` (row-major; one value makes a splat).
  ir::Value* intConstant(ir::Type type, std::vector<int64_t> values);
  /// A rank-0 `i64` constant.
  ir::Value* scalarI64(int64_t value);
  /// A splat zero of `type`, any element type.
  ir::Value* zeros(ir::Type type);
  /// `stablehlo.<kind> lhs, rhs` of `lhs`'s type (add, multiply, shift_right_logical, ...).
  ir::Value* binary(std::string_view kind, ir::Value* lhs, ir::Value* rhs);
  /// `stablehlo.compare` with `direction` (EQ, LT, GE, ...) giving an `i1` tensor.
  ir::Value* compare(std::string_view direction, ir::Value* lhs, ir::Value* rhs);
  ir::Value* select(ir::Value* pred, ir::Value* onTrue, ir::Value* onFalse);
  /// `stablehlo.convert` to `element` (identity when it already matches).
  ir::Value* convert(ir::Value* value, ir::ElementType element);
  /// `stablehlo.reshape` to `shape` (identity when it already matches).
  ir::Value* reshape(ir::Value* value, std::vector<int64_t> shape);
  /// `stablehlo.broadcast_in_dim` of `value` to `type` along `dims`.
  ir::Value* broadcast(ir::Value* value, ir::Type type, std::vector<int64_t> dims);
  /// `stablehlo.iota` of `type` along `dimension`.
  ir::Value* iota(ir::Type type, int64_t dimension);
  /// `stablehlo.slice` with unit strides.
  ir::Value* slice(ir::Value* value, std::vector<int64_t> start, std::vector<int64_t> limit);
  /// `stablehlo.dynamic_slice` at rank-0 `starts` (one per dimension) of `sizes`.
  ir::Value* dynamicSlice(ir::Value* value, std::vector<ir::Value*> starts,
                          std::vector<int64_t> sizes);
  /// `stablehlo.dynamic_update_slice` of `update` into `value` at rank-0 `starts`.
  ir::Value* dynamicUpdateSlice(ir::Value* value, ir::Value* update,
                                std::vector<ir::Value*> starts);
  /// `stablehlo.concatenate` of `values` along `dimension`.
  ir::Value* concatenate(std::vector<ir::Value*> values, int64_t dimension);

  /// The source location every op gets.
  support::SourceLocation loc() const { return m_loc; }

private:
  ir::Block* m_block;
  ir::Operation* m_before; // null: append
  support::SourceLocation m_loc;
  ir::DebugLoc m_debugLoc;
};

/// The dimension numbers of a `stablehlo.dot_general`.
struct DotDims {
  std::vector<int64_t> lhsBatching, rhsBatching, lhsContracting, rhsContracting;
};

/// `stablehlo.dot_general` of `lhs` and `rhs` with `dims`; `precision` is a
/// `[#stablehlo<precision ...>, ...]` array or null. The result type is computed (batch, lhs free,
/// rhs free dims) with `element` as its element type.
ir::Value* dotGeneral(HloEmitter& emitter, ir::Value* lhs, ir::Value* rhs, const DotDims& dims,
                      ir::ElementType element, ir::Attribute precision);

/// A named inherent attribute.
ir::NamedAttribute named(std::string name, ir::Attribute value);

} // namespace shardscope::import_::chlo::detail
