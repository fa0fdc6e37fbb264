#pragma once

#include "core/ir/attribute.h"
#include "core/ir/type.h"

#include <atomic>
#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace shardscope::exec {

/// A dense tensor value of the interpreter: an element type, a static shape and a contiguous
/// row-major buffer in little-endian storage order (one byte per `i1`, the same layout as
/// `ir::DenseElementsAttr::raw`). Supported element types are f64, f32, f16, bf16, i1, i8, i16,
/// i32, i64, ui8, ui16, ui32, ui64, `complex<f32>` and `complex<f64>` (see `isSupportedElement`).
/// A complex element is stored as two floats (two doubles), real part first, as numpy does.
/// Copies share the buffer until one of them is written (copy on write): handing a value to a
/// kernel, keeping it in a frame, a history or a result list costs no copy of its elements. A
/// writer (`bytes()`, `data<T>()`, `set*`) first takes a private copy when the buffer is shared,
/// so a pointer obtained from a writer stays private only until the tensor is copied again.
class Tensor {
public:
  /// An empty rank-0 f32 tensor with no storage; only useful as a placeholder.
  Tensor() = default;
  /// A zero-filled tensor. Precondition: `isSupportedElement(element)`, no dynamic sizes.
  Tensor(ir::ElementType element, std::vector<int64_t> shape);
  /// A tensor whose bytes are left uninitialised, for callers that overwrite every byte before
  /// reading any (receive buffers, results of copies): skips the zero fill, which costs as much
  /// as a copy for large tensors. Precondition: as the constructor.
  static Tensor uninitialized(ir::ElementType element, std::vector<int64_t> shape);

  /// Returns true when the interpreter can hold elements of `element`.
  static bool isSupportedElement(ir::ElementType element);
  /// Storage bytes of one element of `element` (1 for `i1`).
  static size_t elementBytes(ir::ElementType element);
  /// Builds a tensor from a `dense<...>` literal (expanding splats); returns nothing when its
  /// element type is unsupported or its shape is dynamic.
  static std::optional<Tensor> fromDense(const ir::DenseElementsAttr& dense);
  /// A `!stablehlo.token` value (no elements; `type()` is the token type).
  static Tensor token();
  /// A `tuple<...>` value holding `elements` (`type()` is the tuple of their types).
  static Tensor tuple(std::vector<Tensor> elements);
  /// True for token values, and for tuple values.
  bool isToken() const { return m_kind == Kind::Token; }
  bool isTuple() const { return m_kind == Kind::Tuple; }
  /// The elements of a tuple value (empty for other values).
  const std::vector<Tensor>& tupleElements() const;

  /// Builds a tensor of `element` and `shape` from doubles (rounded/converted per element).
  static Tensor fromDoubles(ir::ElementType element, std::vector<int64_t> shape,
                            std::span<const double> values);
  /// Builds a tensor of `element` and `shape` from integers (truncated to the element width).
  static Tensor fromInts(ir::ElementType element, std::vector<int64_t> shape,
                         std::span<const int64_t> values);

  ir::ElementType elementType() const { return m_element; }
  const std::vector<int64_t>& shape() const { return m_shape; }
  int64_t rank() const { return static_cast<int64_t>(m_shape.size()); }
  int64_t numElements() const { return m_numElements; }
  /// Returns `tensor<shape x element>` (the token or tuple type for those values).
  ir::Type type() const;

  /// Element `i` as a double (integers converted, `ui64` as unsigned; the real part of a
  /// complex element, as StableHLO's complex-to-float `convert`).
  double floatAt(int64_t i) const;
  /// Element `i` as an integer: sign-extended for signed types, zero-extended for unsigned
  /// types and `i1` (so `ui64` gives its bit pattern); floats (and the real part of complex
  /// elements) are truncated toward zero.
  int64_t intAt(int64_t i) const;
  /// Element `i` as a complex number in double precision; real elements give `(x, 0)`.
  std::complex<double> complexAt(int64_t i) const;
  /// Stores `v` into element `i`, rounding to the element type (float types; complex types get
  /// `(v, 0)`) or converting with truncation toward zero and saturation (integer types; NaN
  /// gives 0, `i1` gives v != 0).
  void setFloat(int64_t i, double v);
  /// Stores `v` into element `i`, truncating to the element width (`i1` keeps bit 0);
  /// float types receive the converted value, complex types `(v, 0)`.
  void setInt(int64_t i, int64_t v);
  /// Stores `v` into element `i`: complex types round each part to the part type once; real
  /// types receive the real part as `setFloat` does (StableHLO's complex-to-real `convert`).
  void setComplex(int64_t i, std::complex<double> v);

  /// The raw storage, `numElements() * elementBytes(elementType())` bytes.
  std::span<const uint8_t> bytes() const { return {m_data.cdata(), m_data.size()}; }
  std::span<uint8_t> bytes() { return {m_data.data(), m_data.size()}; }
  /// Typed access for callers that know the element type (`float` for f32, ...).
  template <typename T> T* data() { return reinterpret_cast<T*>(m_data.data()); }
  template <typename T> const T* data() const { return reinterpret_cast<const T*>(m_data.cdata()); }
  /// True when this tensor and `other` hold the same buffer (copies not written since).
  bool sharesStorageWith(const Tensor& other) const {
    return m_data.size() && m_data.cdata() == other.m_data.cdata();
  }
  /// Identifies the buffer (null when empty): tensors sharing a buffer give the same pointer.
  const void* storageId() const { return m_data.cdata(); }
  /// Bytes of the buffer (tuple elements included).
  size_t storageBytes() const;

  /// Row-major strides of the shape, in elements.
  std::vector<int64_t> strides() const;
  /// Returns the same buffer viewed with another element type of the same width, or with
  /// another shape with the same element count. Precondition: sizes match.
  Tensor reinterpreted(ir::ElementType element, std::vector<int64_t> shape) const;

  /// Exact equality: same element type, shape and bytes (so NaNs with equal bits are equal);
  /// tokens equal tokens, tuples compare element by element.
  bool operator==(const Tensor& other) const;

  /// A short printout such as `tensor<2x2xf32> [1, 2, 3, 4]`, at most `maxElements` elements
  /// followed by `...`. Complex elements print as in MLIR literals, `(real,imaginary)`.
  std::string str(int64_t maxElements = 16) const;

private:
  /// The element bytes, shared between copies: writers detach (copy on write), moves leave the
  /// source empty, equality compares the bytes. Can allocate without clearing (`uninitialized`).
  class Storage {
  public:
    Storage() = default;
    Storage(size_t size, bool zero);
    explicit Storage(std::span<const uint8_t> bytes);
    Storage(const Storage& other) = default;
    Storage(Storage&& other) noexcept
        : m_bytes(std::move(other.m_bytes)), m_size(std::exchange(other.m_size, 0)) {}
    Storage& operator=(const Storage& other) = default;
    Storage& operator=(Storage&& other) noexcept {
      m_bytes = std::move(other.m_bytes);
      m_size = std::exchange(other.m_size, 0);
      return *this;
    }
    /// Write access: takes a private copy first when another tensor shares the buffer.
    uint8_t* data() {
      if (m_bytes && m_bytes.use_count() != 1)
        detach();
      else // the last holder: order these writes after the reads of holders that let go
        std::atomic_thread_fence(std::memory_order_acquire);
      return m_bytes.get();
    }
    const uint8_t* data() const { return m_bytes.get(); }
    const uint8_t* cdata() const { return m_bytes.get(); }
    size_t size() const { return m_size; }
    bool operator==(const Storage& other) const;

  private:
    void detach();
    std::shared_ptr<uint8_t[]> m_bytes;
    size_t m_size = 0;
  };

  enum class Kind : uint8_t { Tensor, Token, Tuple };
  Kind m_kind = Kind::Tensor;
  /// The elements of a tuple value; shared, as values are immutable once built.
  std::shared_ptr<const std::vector<Tensor>> m_tuple;
  ir::ElementType m_element = ir::ElementType::F32;
  std::vector<int64_t> m_shape;
  int64_t m_numElements = 0;
  Storage m_data;
};

/// The part type of complex element type `element` (f32 for `complex<f32>`, f64 for
/// `complex<f64>`); `element` itself when it is not complex.
ir::ElementType complexPartType(ir::ElementType element);
/// The complex type whose parts are `element` (`complex<f32>` for f32, `complex<f64>` for f64),
/// or nothing for other types.
std::optional<ir::ElementType> complexTypeOf(ir::ElementType element);

/// Keeps memory freed by tensors in the process instead of returning it to the kernel, in one
/// shared heap (glibc's mallopt; a no-op elsewhere). Multi-device runs create and free tensors of many megabytes per
/// collective; returned blocks page-fault again on first touch, which costs more than moving the
/// data. Interpreters and backends call it when they are created; calling it again does nothing.
void retainFreedTensorMemory();

/// Tolerances of `compareTensors`. An element pair matches when the values are bitwise equal, both
/// NaN, within `maxUlps` units in the last place, within `absTolerance`, or within
/// `relTolerance * max(|a|, |b|)`. Integers must be equal. Complex elements match when both their
/// real parts and their imaginary parts match under these rules, in the part type.
struct CompareOptions {
  int64_t maxUlps = 0;
  double relTolerance = 0;
  double absTolerance = 0;
  /// Optional per-element absolute tolerance (a float tensor shaped like `expected`, e.g. what
  /// reordered float sums can explain), allowed on top of the scalar tolerances. A mismatch
  /// message then states the bound it exceeds; `boundWhat` names what the bound stands for.
  const Tensor* bounds = nullptr;
  std::string boundWhat = "what reordered float arithmetic can explain";
};

/// The outcome of `compareTensors`: `equal` and, when not, a message naming the first mismatch
/// (`element 3: expected 1.5, got 1.25 (2 ulps)`; for complex elements
/// `element 0: expected (1,2), got (1,2.5) (0 ulps real, 2097152 ulps imaginary)`).
struct CompareResult {
  bool equal = true;
  std::string message;
  int64_t mismatches = 0;
};

/// Compares `actual` against `expected` element by element under `options`. Element types and
/// shapes must match exactly.
CompareResult compareTensors(const Tensor& expected, const Tensor& actual,
                             const CompareOptions& options = {});

/// Distance in units in the last place between two values of float type `element` (0 when equal,
/// INT64_MAX when one is NaN).
int64_t ulpDistance(double a, double b, ir::ElementType element);

} // namespace shardscope::exec
