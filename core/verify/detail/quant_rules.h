#pragma once

// StableHLO's quantization constraints (TypeInference.cpp: `verifyBinaryOpQuantizationConstraints`,
// `verifyConvolutionDotGeneralCommonQuantizationConstraints`,
// `verifyConvolutionOpQuantizationConstraints`, `verifyDotGeneralOpQuantizationConstraints`,
// `verifyBroadcastInDimOpQuantConstraints`, `verifyTransposeOp`,
// `verifyReshapeOpQuantizationConstraints`, `verifyUniformQuantizeOp`, `inferUniformDequantizeOp`;
// Base.td's quantized type classes).
// Each check returns true without reporting when a quantized type is one ShardScope cannot read
// (`ir::quantTypeOf` gives nothing): the rule is skipped rather than guessed.

#include "core/verify/detail/op_context.h"

#include <cstdint>
#include <span>

namespace shardscope::verify::detail {

/// True when `type` is a tensor of a `!quant.` element type, readable or not.
bool isQuantized(ir::Type type);
/// The shape of a ranked tensor, or of a readable quantized tensor; nothing otherwise.
std::optional<std::vector<int64_t>> shapeOf(ir::Type type);
/// The element type of a ranked tensor, the storage type of a readable quantized tensor;
/// nothing otherwise.
std::optional<ir::ElementType> elementOrStorageOf(ir::Type type);
/// True when any of `types` is quantized (StableHLO's `anyQuantized<quant::QuantizedType>`).
bool anyQuantized(std::span<const ir::Type> types);

/// StableHLO's ODS type classes on quantized operands and results: a per-axis quantized tensor
/// only where the op admits one (`HLO_TensorOrPerAxisQuantizedTensor` and its relatives; every
/// other operand is an `HLO_Tensor`), and every quantized tensor a valid StableHLO one
/// (`isValidStablehloQuantizedElementType`, `isValidQuantizedDimension`): "operand #0 must be
/// ranked tensor of ..., but got '...'".
bool checkQuantTypeClasses(const OpContext& ctx);
/// The element type classes of the elementwise ops' plain operands (`sine` takes floats or
/// complex numbers, `and` booleans or integers, ...): ODS's "operand #0 must be ranked tensor of
/// ..." (`verify_type_classes.cpp`).
bool checkElementTypeClasses(const OpContext& ctx);
/// The reducers of quantized reductions (reduce, reduce_window, all_reduce, reduce_scatter,
/// collective_reduce, scatter, select_and_scatter): accumulator and arguments promotable from
/// the init values and inputs (`verifyReducerShape`'s element rules on quantized types).
bool checkQuantizedReducers(const OpContext& ctx);
/// The ops whose results ODS declares `Variadic<...>` (its messages then say "variadic of").
bool hasVariadicResults(std::string_view op);
/// An op of StableHLO or Shardy that neither dialect defines is an error (known_ops.cpp).
bool checkKnownOp(const OpContext& ctx);

/// `add_c2`...`add_c7`: both operands and the result quantized alike, with one storage and one
/// expressed type, and per-axis parameters only on the same dimension as the result's.
bool checkBinaryQuantization(const OpContext& ctx, ir::Type lhs, ir::Type rhs, ir::Type result);
/// `convolution_c28`...`convolution_c34` (and `dynamic_conv`'s): the quantized dimensions are the
/// kernel's and the result's feature dimensions, then the constraints shared with `dot_general`.
bool checkConvolutionQuantization(const OpContext& ctx, ir::Type lhs, ir::Type rhs, ir::Type result,
                                  int64_t kernelOutputFeature, int64_t outputFeature);
/// `dot_general_c14`...`dot_general_c20`: rhs zero points are 0, its quantized dimension is not
/// contracted, then the constraints shared with `convolution`.
bool checkDotGeneralQuantization(const OpContext& ctx, ir::Type lhs, ir::Type rhs, ir::Type result,
                                 std::span<const int64_t> rhsContracting);
/// `verifyQPerTensorScaleAndZeroPointConstraints` (`broadcast_in_dim_c1`, ...): two per-tensor
/// quantized types have the same parameters.
bool checkSamePerTensorQuantization(const OpContext& ctx, ir::Type a, ir::Type b);
/// `broadcast_in_dim_c6` (and `dynamic_broadcast_in_dim_c6`) for a per-axis result: its quantized
/// dimension is where the operand's goes, and a size-1 operand axis gives every result axis the
/// operand's parameters.
bool checkBroadcastQuantization(const OpContext& ctx, ir::Type operand, ir::Type result,
                                std::span<const int64_t> dims);

/// `transpose_c1` and `transpose_c4`: the same parameters, and a per-axis result's quantized
/// dimension is where the permutation takes the operand's.
bool checkTransposeQuantization(const OpContext& ctx, ir::Type operand, ir::Type result,
                                std::span<const int64_t> permutation);
/// `reshape_c1`, `reshape_c3` (and `dynamic_reshape`'s): the same parameters, the quantized
/// dimension keeps its size and the product of the dimensions before it.
bool checkReshapeQuantization(const OpContext& ctx, ir::Type operand, ir::Type result);

/// Adds `uniform_quantize` and `uniform_dequantize`.
void addQuantRules(RuleTable& table);

} // namespace shardscope::verify::detail
