#pragma once
// Internal to core/autodiff: appends StableHLO ops to the end of one block. The transposer and
// the gradient builder write the new function (and new manual computation bodies) front to back,
// so appending is all they need.

#include "core/ir/module.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::autodiff::detail {

/// Appends ops to a block. Every op gets the location `loc` (the op being transposed), so the
/// CLI and the GUI can point from a backward op back to the source op it came from.
class OpBuilder {
public:
  explicit OpBuilder(ir::Block& block) : m_block(&block) {}

  ir::Block& block() const { return *m_block; }
  void setLoc(support::SourceLocation loc) { m_loc = loc; }
  support::SourceLocation loc() const { return m_loc; }

  /// Appends `name(operands) -> resultTypes` with inherent attributes `attrs`.
  ir::Operation* create(std::string_view name, std::span<ir::Value* const> operands,
                        std::span<const ir::Type> resultTypes,
                        std::vector<ir::NamedAttribute> attrs = {});
  /// Same for one result; returns it.
  ir::Value* create1(std::string_view name, std::vector<ir::Value*> operands, ir::Type type,
                     std::vector<ir::NamedAttribute> attrs = {});

  /// A splat constant of `type` (float or integer element type) holding `value`.
  ir::Value* splat(ir::Type type, double value);
  /// A constant of integer `type` holding `values` (row-major).
  ir::Value* intConstant(ir::Type type, std::span<const int64_t> values);
  /// `stablehlo.<kind> lhs, rhs` of `lhs`'s type.
  ir::Value* binary(std::string_view kind, ir::Value* lhs, ir::Value* rhs);
  /// `stablehlo.<kind> x` of `x`'s type.
  ir::Value* unary(std::string_view kind, ir::Value* x);
  /// `stablehlo.compare` giving an `i1` tensor.
  ir::Value* compare(std::string_view direction, ir::Value* lhs, ir::Value* rhs);
  ir::Value* select(ir::Value* pred, ir::Value* onTrue, ir::Value* onFalse);
  ir::Value* convert(ir::Value* x, ir::Type type);
  ir::Value* reshape(ir::Value* x, ir::Type type);
  ir::Value* transpose(ir::Value* x, std::vector<int64_t> permutation);
  ir::Value* broadcast(ir::Value* x, ir::Type type, std::vector<int64_t> dims);
  /// Sum of `x` over `dims` (a `stablehlo.reduce` with an add body).
  ir::Value* reduceSum(ir::Value* x, std::vector<int64_t> dims);
  ir::Value* slice(ir::Value* x, std::vector<int64_t> start, std::vector<int64_t> limit,
                   std::vector<int64_t> strides);
  ir::Value* pad(ir::Value* x, ir::Value* padValue, std::vector<int64_t> low,
                 std::vector<int64_t> high, std::vector<int64_t> interior);
  ir::Value* dynamicSlice(ir::Value* x, std::span<ir::Value* const> starts,
                          std::vector<int64_t> sizes);
  ir::Value* dynamicUpdateSlice(ir::Value* x, ir::Value* update,
                                std::span<ir::Value* const> starts);
  /// `stablehlo.dot_general` with the given dimension numbers; the result type is computed.
  ir::Value* dotGeneral(ir::Value* lhs, ir::Value* rhs, const std::vector<int64_t> (&dims)[4]);

  /// Adds a `(tensor<E>, tensor<E>) -> tensor<E>` region applying `stablehlo.add` to `op`.
  static void addSumRegion(ir::Operation& op, ir::ElementType element);

private:
  ir::Block* m_block;
  support::SourceLocation m_loc;
};

/// A named inherent attribute.
ir::NamedAttribute named(std::string name, ir::Attribute value);
/// `value : i64`.
ir::Attribute i64(int64_t value);
/// `dense<rows> : tensor<RxCxi64>`.
ir::Attribute i64Matrix(const std::vector<std::vector<int64_t>>& rows);
/// The `#stablehlo.dot<...>` text of dimension numbers (lhs batching, rhs batching, lhs
/// contracting, rhs contracting).
ir::Attribute dotDims(const std::vector<int64_t> (&dims)[4]);

} // namespace shardscope::autodiff::detail
