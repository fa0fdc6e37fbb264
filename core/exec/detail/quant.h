#pragma once

// Uniform quantized types (`tensor<2x!quant.uniform<i8:f32, 0.1:-30>>`, per-axis
// `!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>`). The IR keeps such types opaque; the interpreter
// holds their values as tensors of the storage type and converts with the spec's formulas:
// dequantize(q) = (q - zero_point) * scale, quantize(x) = clamp(round_nearest_even(x / scale +
// zero_point), storage_min, storage_max).

#include "core/exec/detail/kernel.h"
#include "core/exec/tensor.h"
#include "core/ir/quant_type.h"
#include "core/ir/type.h"

#include <optional>
#include <vector>

namespace shardscope::exec::detail {

using ir::QuantType;
using ir::quantTypeOf;

/// The values of storage tensor `q` of type `qt` as a tensor of the expressed type.
Tensor dequantize(const Tensor& q, const QuantType& qt);

/// Float tensor `x` quantized to `qt` (a tensor of the storage type).
Tensor quantize(const Tensor& x, const QuantType& qt);

/// Returns true when an operand or result of `op` has a quantized type.
bool hasQuantTypes(const ir::Operation& op);

/// Runs `kernel` on a quantized op the way StableHLO lowers it: operands are dequantized, the op
/// runs on the expressed type, and results are quantized to their types.
bool runDequantized(KernelContext& ctx, Kernel kernel);

} // namespace shardscope::exec::detail
