#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::ir {

/// The element types of tensors that StableHLO programs use.
enum class ElementType : uint8_t {
  F64, F32, F16, BF16,
  I1, I2, I4, I8, I16, I32, I64,
  UI2, UI4, UI8, UI16, UI32, UI64,
  F8E4M3FN, F8E5M2, F8E4M3FNUZ, F8E5M2FNUZ, F8E4M3B11FNUZ,
  Index,
  Complex64,  ///< `complex<f32>`
  Complex128, ///< `complex<f64>`
  // Later float formats, kept after the others so existing values keep their numbers.
  F8E3M4, F8E4M3, F8E8M0FNU, F6E2M3FN, F6E3M2FN, F4E2M1FN,
};

/// Returns the MLIR spelling of `type` (`f32`, `ui8`, `complex<f32>`, ...).
std::string_view elementTypeName(ElementType type);
/// Parses an MLIR element type spelling; returns nothing for unknown spellings.
std::optional<ElementType> parseElementTypeName(std::string_view name);
/// Returns the storage size in bits (1 for `i1`, 64 for `complex<f32>`).
int elementBitWidth(ElementType type);
/// Returns true for the floating-point element types (not complex).
bool isFloatElement(ElementType type);
/// Returns true for signless and unsigned integers, including `i1` and `index`.
bool isIntegerElement(ElementType type);
/// Returns true for the unsigned integer types.
bool isUnsignedElement(ElementType type);
/// Returns true for `complex<f32>` and `complex<f64>`.
bool isComplexElement(ElementType type);

/// A dimension size that is not known statically (`?` in `tensor<?x4xf32>`).
inline constexpr int64_t kDynamicSize = INT64_MIN;

struct TypeStorage;

/// An immutable, uniqued type. Two `Type`s are equal iff they are the same type. A default
/// constructed `Type` is null. Types live for the whole process (they are interned), so copying a
/// `Type` is copying a pointer.
class Type {
public:
  enum class Kind : uint8_t {
    Tensor,   ///< `tensor<4x8xf32>`, ranked; scalar tensors have rank 0
    Scalar,   ///< a bare element type used as an attribute type: `i64`, `f32`, `index`
    Token,    ///< `!stablehlo.token`
    Tuple,    ///< `tuple<tensor<f32>, !stablehlo.token>`
    Function, ///< `(tensor<f32>) -> tensor<f32>`
    None,     ///< `none`
    Opaque,   ///< any other type, kept verbatim (`!foo.bar<...>`, unranked tensors, ...)
  };

  Type() = default;

  /// Returns `tensor<shape x element>`.
  static Type tensor(std::span<const int64_t> shape, ElementType element);
  /// Returns the bare element type `element` (as used for integer attributes).
  static Type scalar(ElementType element);
  /// Returns `!stablehlo.token`.
  static Type token();
  /// Returns `none`.
  static Type none();
  /// Returns `tuple<elements...>`.
  static Type tuple(std::span<const Type> elements);
  /// Returns `(inputs) -> results`.
  static Type function(std::span<const Type> inputs, std::span<const Type> results);
  /// Returns a type printed as `text` that the IR does not interpret. With `printed`, the type
  /// is one per `text` but printed as `printed` (a dialect type whose printed form is not exact,
  /// such as a quantized type's rounded scales).
  static Type opaque(std::string_view text, std::string_view printed = {});

  explicit operator bool() const { return m_impl != nullptr; }
  bool operator==(const Type& other) const = default;

  Kind kind() const;
  bool isTensor() const { return m_impl && kind() == Kind::Tensor; }
  bool isToken() const { return m_impl && kind() == Kind::Token; }

  /// Tensor/scalar element type. Precondition: tensor or scalar.
  ElementType elementType() const;
  /// Tensor shape (empty for scalars and rank-0 tensors).
  std::span<const int64_t> shape() const;
  /// Tensor rank. Precondition: tensor.
  int64_t rank() const { return static_cast<int64_t>(shape().size()); }
  /// Returns true when every dimension is static.
  bool hasStaticShape() const;
  /// Number of elements of a static tensor (1 for rank 0); -1 when a dimension is dynamic.
  int64_t numElements() const;
  /// Tuple elements or function inputs.
  std::span<const Type> elements() const;
  /// Function results.
  std::span<const Type> results() const;
  /// Verbatim text of an opaque type.
  std::string_view opaqueText() const;

  /// Returns the same tensor type with another shape. Precondition: tensor.
  Type withShape(std::span<const int64_t> shape) const;

  /// Prints the type in MLIR syntax.
  std::string str() const;
  /// Appends the MLIR syntax of the type to `out`.
  void print(std::string& out) const;

  /// Opaque identity, for hashing.
  const void* opaquePointer() const { return m_impl; }

private:
  explicit Type(const TypeStorage* impl) : m_impl(impl) {}
  const TypeStorage* m_impl = nullptr;
};

} // namespace shardscope::ir
