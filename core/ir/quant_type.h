#pragma once

// Uniform quantized tensor types (`tensor<2x!quant.uniform<i8:f32, 0.1:-30>>`, per axis
// `tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>`). The IR keeps such types opaque; this
// reads their parameters for the stages that need them (the parser, the verifier, the
// interpreter).
//
// Two spellings of one type are one type, as in MLIR: `i8<-128:127>` is `i8`, `0.1` is
// `1.000000e-01`, a zero point 0 may be left out. The parser interns a quantized tensor type by
// `identityText()` (exact: parameters as the shortest decimal that reads back to the same
// double) and prints it as MLIR does (`printedText()`, scales as `%e`).

#include "core/ir/type.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::ir {

/// A parsed uniform quantized tensor type.
struct QuantType {
  /// How the storage integer was written: `i8` (signless, which MLIR's quant dialect reads as
  /// signed), `si8` or `ui8`.
  enum class Sign : uint8_t { Signless, Signed, Unsigned };

  std::vector<int64_t> shape;
  bool unranked = false; ///< `tensor<*x!quant.uniform<...>>` (no `shape`)
  ElementType storage = ElementType::I8;
  Sign storageSign = Sign::Signless;
  ElementType expressed = ElementType::F32;
  int64_t axis = -1; ///< the quantized dimension, -1 for per-tensor parameters
  bool axisWritten = false; ///< the text names a quantized dimension (which may be negative)
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
  /// This type (with its current `shape`), as the parser interns it.
  Type type() const;
  /// The text two spellings of this type share; reads back to the same parameters.
  std::string identityText() const;
  /// The text MLIR prints for this type (scales with six digits after the point).
  std::string printedText() const;
};

/// Reads `text`, a static-shaped or unranked tensor type whose element is `!quant.uniform<...>`,
/// without checking the type's invariants; nothing for any other text.
std::optional<QuantType> parseQuantTensorText(std::string_view text);

/// The first invariant of MLIR's quant dialect that `q` breaks, in MLIR's words ("illegal storage
/// type size: 64", "scale 4.960464e-08 out of expressed type range [...]", "illegal quantized
/// dimension: -1"); nothing when it holds them all.
std::optional<std::string> quantInvariantError(const QuantType& q);

/// StableHLO's element constraint on quantized types (`isValidStablehloQuantizedElementType`
/// with the storage widths of its ODS classes, and `isValidQuantizedDimension`): signless or
/// unsigned storage of 2, 4, 8, 16 or 32 bits, zero points inside the storage range, and a
/// quantized dimension inside the shape with one scale per index.
bool isValidStablehloQuantType(const QuantType& q);

/// Parses `type` as a static-shaped uniform quantized tensor type whose per-axis parameters
/// match its quantized dimension; nothing for any other type.
std::optional<QuantType> quantTypeOf(Type type);

} // namespace shardscope::ir
