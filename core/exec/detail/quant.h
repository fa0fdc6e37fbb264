#pragma once

// Uniform quantized types (`tensor<2x!quant.uniform<i8:f32, 0.1:-30>>`, per-axis
// `!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>`). The IR keeps such types opaque; the interpreter
// holds their values as tensors of the storage type and converts with the spec's formulas:
// dequantize(q) = (q - zero_point) * scale, quantize(x) = clamp(round_nearest_even(x / scale +
// zero_point), storage_min, storage_max).

#include "core/exec/detail/kernel.h"
#include "core/exec/tensor.h"
#include "core/ir/type.h"

#include <optional>
#include <vector>

namespace shardscope::exec::detail {

/// A parsed uniform quantized tensor type.
struct QuantType {
  std::vector<int64_t> shape;
  ir::ElementType storage = ir::ElementType::I8;
  ir::ElementType expressed = ir::ElementType::F32;
  int64_t axis = -1; ///< the quantized dimension, -1 for per-tensor parameters
  std::vector<double> scales;
  std::vector<int64_t> zeroPoints;
  int64_t storageMin = 0, storageMax = 0;

  /// The tensor type values of this type are held as (`tensor<shape x storage>`).
  ir::Type storageType() const;
  /// The tensor type of the dequantized values (`tensor<shape x expressed>`).
  ir::Type expressedType() const;
};

/// Parses `type` as a uniform quantized tensor type; nothing for any other type.
std::optional<QuantType> quantTypeOf(ir::Type type);

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
