#pragma once

// Uniform quantized tensor types (`tensor<2x!quant.uniform<i8:f32, 0.1:-30>>`, per axis
// `tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>`). The IR keeps such types opaque; this
// reads their parameters for the stages that need them (the verifier, the interpreter).

#include "core/ir/type.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace shardscope::ir {

/// A parsed uniform quantized tensor type.
struct QuantType {
  std::vector<int64_t> shape;
  ElementType storage = ElementType::I8;
  ElementType expressed = ElementType::F32;
  int64_t axis = -1; ///< the quantized dimension, -1 for per-tensor parameters
  std::vector<double> scales;
  std::vector<int64_t> zeroPoints;
  int64_t storageMin = 0, storageMax = 0;

  /// True for per-axis parameters (`quant.uniform<i8:f32:0, {...}>`).
  bool perAxis() const { return axis >= 0; }
  /// True when both have the same element type: storage, its range, expressed type, axis and
  /// parameters (the shapes are not compared).
  bool sameElement(const QuantType& other) const;
  /// The tensor type values of this type are held as (`tensor<shape x storage>`).
  Type storageType() const;
  /// The tensor type of the dequantized values (`tensor<shape x expressed>`).
  Type expressedType() const;
};

/// Parses `type` as a static-shaped uniform quantized tensor type whose per-axis parameters
/// match its quantized dimension; nothing for any other type.
std::optional<QuantType> quantTypeOf(Type type);

} // namespace shardscope::ir
