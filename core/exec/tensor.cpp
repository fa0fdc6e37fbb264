#include "core/exec/tensor.h"

#include "core/ir/minifloat.h"
#include "core/support/float16.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <atomic>
#include <mutex>

namespace shardscope::exec {

void retainFreedTensorMemory() {
  static std::once_flag once;
  std::call_once(once, [] {
#if defined(__GLIBC__)
    mallopt(M_MMAP_MAX, 0);              // large blocks come from the heap, not fresh mappings
    mallopt(M_TRIM_THRESHOLD, 1 << 30);  // and stay there when freed
    // One arena: device threads free blocks another thread allocated; with an arena per thread
    // those blocks are too large for the secondary arenas and each thread grows its own heap.
    mallopt(M_ARENA_MAX, 1);
#endif
  });
}

using ir::ElementType;

namespace {

template <typename T> T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T> void store(uint8_t* p, T v) { std::memcpy(p, &v, sizeof(T)); }

// Saturating float-to-integer conversion: StableHLO leaves overflow implementation-defined, and
// saturation (with NaN -> 0) is what XLA's CPU backend does.
int64_t saturate(double v, ElementType e) {
  if (std::isnan(v))
    return 0;
  if (e == ElementType::I1)
    return v != 0;
  int bits = ir::elementBitWidth(e);
  if (ir::isUnsignedElement(e)) {
    double hi = std::ldexp(1.0, bits);
    if (v <= 0)
      return 0;
    if (v >= hi)
      return bits == 64 ? -1 : static_cast<int64_t>((uint64_t{1} << bits) - 1);
    return static_cast<int64_t>(static_cast<uint64_t>(v));
  }
  double hi = std::ldexp(1.0, bits - 1);
  if (v >= hi)
    return static_cast<int64_t>((uint64_t{1} << (bits - 1)) - 1);
  if (v < -hi)
    return static_cast<int64_t>(-(uint64_t{1} << (bits - 1)));
  return static_cast<int64_t>(v);
}

// The float bits of `v` in `element`'s format mapped to a monotonic integer line.
int64_t orderedBits(double v, ElementType element) {
  int64_t bits = 0;
  int signBit = 0;
  switch (element) {
  case ElementType::F64:
    bits = std::bit_cast<int64_t>(v);
    signBit = 63;
    break;
  case ElementType::F32:
    bits = std::bit_cast<uint32_t>(static_cast<float>(v));
    signBit = 31;
    break;
  case ElementType::F16:
    bits = support::floatToHalf(static_cast<float>(v));
    signBit = 15;
    break;
  case ElementType::BF16:
    bits = support::floatToBf16(static_cast<float>(v));
    signBit = 15;
    break;
  default: {
    bits = ir::miniFloatFromDouble(v, element);
    signBit = ir::miniFloatSignBit(element);
    if (signBit < 0) // unsigned formats order as their bits
      return bits;
    break;
  }
  }
  uint64_t mask = (uint64_t{1} << signBit);
  uint64_t u = static_cast<uint64_t>(bits);
  if (signBit == 63)
    return (u & mask) ? -static_cast<int64_t>(u & ~mask) : static_cast<int64_t>(u);
  return (u & mask) ? -static_cast<int64_t>(u & (mask - 1)) : static_cast<int64_t>(u);
}

std::string formatElement(const Tensor& t, int64_t i) {
  if (ir::isComplexElement(t.elementType())) {
    // MLIR's literal form `(re,im)`; each part printed in the part type.
    std::complex<double> c = t.complexAt(i);
    ElementType part = complexPartType(t.elementType());
    std::string out = "(";
    ir::printFloat(c.real(), part, out);
    out += ',';
    ir::printFloat(c.imag(), part, out);
    return out + ")";
  }
  if (ir::isFloatElement(t.elementType())) {
    std::string out;
    ir::printFloat(t.floatAt(i), t.elementType(), out);
    return out;
  }
  if (t.elementType() == ElementType::UI64)
    return std::to_string(static_cast<uint64_t>(t.intAt(i)));
  if (t.elementType() == ElementType::I1)
    return t.intAt(i) ? "true" : "false";
  return std::to_string(t.intAt(i));
}

} // namespace

namespace {
int64_t productOf(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}
} // namespace

Tensor::Tensor(ElementType element, std::vector<int64_t> shape)
    : m_element(element), m_shape(std::move(shape)), m_numElements(productOf(m_shape)) {
  m_data = Storage(static_cast<size_t>(m_numElements) * elementBytes(element), /*zero=*/true);
}

Tensor Tensor::uninitialized(ElementType element, std::vector<int64_t> shape) {
  Tensor t;
  t.m_element = element;
  t.m_shape = std::move(shape);
  t.m_numElements = productOf(t.m_shape);
  t.m_data = Storage(static_cast<size_t>(t.m_numElements) * elementBytes(element), /*zero=*/false);
  return t;
}

Tensor::Storage::Storage(size_t size, bool zero) : m_size(size) {
  if (size == 0)
    return;
  // `new T[n]` leaves bytes uninitialised, `new T[n]()` clears them (as std::vector does).
  m_bytes.reset(zero ? new uint8_t[size]() : new uint8_t[size]);
}

Tensor::Storage::Storage(std::span<const uint8_t> bytes) : Storage(bytes.size(), false) {
  if (m_size)
    std::memcpy(m_bytes.get(), bytes.data(), m_size);
}

void Tensor::Storage::detach() {
  // Another tensor holds the buffer: take a private copy before writing.
  std::shared_ptr<uint8_t[]> copy(new uint8_t[m_size]);
  std::memcpy(copy.get(), m_bytes.get(), m_size);
  m_bytes = std::move(copy);
}

size_t Tensor::storageBytes() const {
  size_t bytes = m_data.size();
  if (m_tuple)
    for (const Tensor& t : *m_tuple)
      bytes += t.storageBytes();
  return bytes;
}

bool Tensor::Storage::operator==(const Storage& other) const {
  return m_size == other.m_size &&
         (m_size == 0 || m_bytes == other.m_bytes ||
          std::memcmp(cdata(), other.cdata(), m_size) == 0);
}

bool Tensor::isSupportedElement(ElementType e) {
  if (ir::isMiniFloat(e))
    return true;
  switch (e) {
  case ElementType::F64:
  case ElementType::F32:
  case ElementType::F16:
  case ElementType::BF16:
  case ElementType::I1:
  case ElementType::I2:
  case ElementType::I4:
  case ElementType::UI2:
  case ElementType::UI4:
  case ElementType::I8:
  case ElementType::I16:
  case ElementType::I32:
  case ElementType::I64:
  case ElementType::UI8:
  case ElementType::UI16:
  case ElementType::UI32:
  case ElementType::UI64:
  case ElementType::Complex64:
  case ElementType::Complex128:
    return true;
  default:
    return false;
  }
}

size_t Tensor::elementBytes(ElementType e) {
  int bits = ir::elementBitWidth(e);
  return bits <= 8 ? 1 : static_cast<size_t>(bits / 8);
}

std::optional<Tensor> Tensor::fromDense(const ir::DenseElementsAttr& dense) {
  if (!dense.type.isTensor() || !dense.type.hasStaticShape() ||
      !isSupportedElement(dense.type.elementType()))
    return std::nullopt;
  std::span<const int64_t> shape = dense.type.shape();
  Tensor t(dense.type.elementType(), {shape.begin(), shape.end()});
  size_t width = elementBytes(t.m_element);
  if (dense.isSplat) {
    if (dense.raw.size() < width)
      return std::nullopt;
    for (size_t off = 0; off < t.m_data.size(); off += width)
      std::memcpy(t.m_data.data() + off, dense.raw.data(), width);
  } else {
    if (dense.raw.size() != t.m_data.size())
      return std::nullopt;
    t.m_data = Storage(std::span<const uint8_t>(dense.raw.data(), dense.raw.size()));
  }
  int bits = ir::elementBitWidth(t.m_element);
  if (ir::isIntegerElement(t.m_element) && bits < 8 && t.m_element != ElementType::I1) {
    // Sub-byte integers keep only their own bits, so equal values have equal bytes.
    for (uint8_t& b : t.bytes())
      b &= static_cast<uint8_t>((1u << bits) - 1);
  }
  return t;
}

Tensor Tensor::fromDoubles(ElementType element, std::vector<int64_t> shape,
                           std::span<const double> values) {
  Tensor t(element, std::move(shape));
  for (int64_t i = 0; i < t.numElements() && i < static_cast<int64_t>(values.size()); ++i)
    t.setFloat(i, values[static_cast<size_t>(i)]);
  return t;
}

Tensor Tensor::fromInts(ElementType element, std::vector<int64_t> shape,
                        std::span<const int64_t> values) {
  Tensor t(element, std::move(shape));
  for (int64_t i = 0; i < t.numElements() && i < static_cast<int64_t>(values.size()); ++i)
    t.setInt(i, values[static_cast<size_t>(i)]);
  return t;
}

ir::Type Tensor::type() const {
  if (m_kind == Kind::Token)
    return ir::Type::token();
  if (m_kind == Kind::Tuple) {
    std::vector<ir::Type> types;
    for (const Tensor& t : *m_tuple)
      types.push_back(t.type());
    return ir::Type::tuple(types);
  }
  return ir::Type::tensor(m_shape, m_element);
}

Tensor Tensor::token() {
  Tensor t;
  t.m_kind = Kind::Token;
  return t;
}

Tensor Tensor::tuple(std::vector<Tensor> elements) {
  Tensor t;
  t.m_kind = Kind::Tuple;
  t.m_tuple = std::make_shared<const std::vector<Tensor>>(std::move(elements));
  return t;
}

bool Tensor::operator==(const Tensor& other) const {
  if (m_kind != other.m_kind)
    return false;
  if (m_kind == Kind::Tuple)
    return *m_tuple == *other.m_tuple;
  return m_kind == Kind::Token || (m_element == other.m_element && m_shape == other.m_shape &&
                                   m_data == other.m_data);
}

const std::vector<Tensor>& Tensor::tupleElements() const {
  static const std::vector<Tensor> kNone;
  return m_tuple ? *m_tuple : kNone;
}

double Tensor::floatAt(int64_t i) const {
  const uint8_t* p = m_data.data() + static_cast<size_t>(i) * elementBytes(m_element);
  switch (m_element) {
  case ElementType::F64:
    return load<double>(p);
  case ElementType::F32:
    return load<float>(p);
  case ElementType::F16:
    return support::halfToFloat(load<uint16_t>(p));
  case ElementType::BF16:
    return support::bf16ToFloat(load<uint16_t>(p));
  case ElementType::Complex64:
    return load<float>(p);
  case ElementType::Complex128:
    return load<double>(p);
  case ElementType::UI64:
    return static_cast<double>(static_cast<uint64_t>(intAt(i)));
  default:
    if (ir::isMiniFloat(m_element))
      return ir::miniFloatToDouble(*p, m_element);
    return static_cast<double>(intAt(i));
  }
}

int64_t Tensor::intAt(int64_t i) const {
  const uint8_t* p = m_data.data() + static_cast<size_t>(i) * elementBytes(m_element);
  switch (m_element) {
  case ElementType::I1:
    return *p & 1;
  case ElementType::I2:
    return static_cast<int8_t>(static_cast<uint8_t>(*p << 6)) >> 6;
  case ElementType::I4:
    return static_cast<int8_t>(static_cast<uint8_t>(*p << 4)) >> 4;
  case ElementType::UI2:
    return *p & 0x3;
  case ElementType::UI4:
    return *p & 0xF;
  case ElementType::I8:
    return load<int8_t>(p);
  case ElementType::I16:
    return load<int16_t>(p);
  case ElementType::I32:
    return load<int32_t>(p);
  case ElementType::I64:
    return load<int64_t>(p);
  case ElementType::UI8:
    return load<uint8_t>(p);
  case ElementType::UI16:
    return load<uint16_t>(p);
  case ElementType::UI32:
    return load<uint32_t>(p);
  case ElementType::UI64:
    return static_cast<int64_t>(load<uint64_t>(p));
  default:
    return saturate(floatAt(i), ElementType::I64);
  }
}

std::complex<double> Tensor::complexAt(int64_t i) const {
  const uint8_t* p = m_data.data() + static_cast<size_t>(i) * elementBytes(m_element);
  if (m_element == ElementType::Complex64)
    return {load<float>(p), load<float>(p + 4)};
  if (m_element == ElementType::Complex128)
    return {load<double>(p), load<double>(p + 8)};
  return {floatAt(i), 0.0};
}

void Tensor::setComplex(int64_t i, std::complex<double> v) {
  uint8_t* p = m_data.data() + static_cast<size_t>(i) * elementBytes(m_element);
  if (m_element == ElementType::Complex64) {
    store(p, static_cast<float>(v.real()));
    store(p + 4, static_cast<float>(v.imag()));
  } else if (m_element == ElementType::Complex128) {
    store(p, v.real());
    store(p + 8, v.imag());
  } else {
    setFloat(i, v.real());
  }
}

void Tensor::setFloat(int64_t i, double v) {
  uint8_t* p = m_data.data() + static_cast<size_t>(i) * elementBytes(m_element);
  switch (m_element) {
  case ElementType::F64:
    store(p, v);
    return;
  case ElementType::F32:
    store(p, static_cast<float>(v));
    return;
  case ElementType::F16:
    store(p, support::floatToHalf(static_cast<float>(v)));
    return;
  case ElementType::BF16:
    store(p, support::floatToBf16(static_cast<float>(v)));
    return;
  case ElementType::Complex64:
  case ElementType::Complex128:
    setComplex(i, {v, 0.0});
    return;
  default:
    if (ir::isMiniFloat(m_element)) {
      *p = ir::miniFloatFromDouble(v, m_element);
      return;
    }
    setInt(i, saturate(v, m_element));
    return;
  }
}

void Tensor::setInt(int64_t i, int64_t v) {
  if (ir::isFloatElement(m_element) || ir::isComplexElement(m_element)) {
    setFloat(i, static_cast<double>(v));
    return;
  }
  uint8_t* p = m_data.data() + static_cast<size_t>(i) * elementBytes(m_element);
  if (m_element == ElementType::I1)
    v &= 1;
  else if (int bits = ir::elementBitWidth(m_element); bits < 8)
    v &= (int64_t{1} << bits) - 1; // sub-byte integers keep only their own bits
  // Little-endian truncation: the low bytes of the two's complement value.
  uint64_t u = static_cast<uint64_t>(v);
  std::memcpy(p, &u, elementBytes(m_element));
}

std::vector<int64_t> Tensor::strides() const {
  std::vector<int64_t> s(m_shape.size(), 1);
  for (int64_t d = rank() - 2; d >= 0; --d)
    s[d] = s[d + 1] * m_shape[d + 1];
  return s;
}

Tensor Tensor::reinterpreted(ElementType element, std::vector<int64_t> shape) const {
  Tensor t;
  t.m_element = element;
  t.m_shape = std::move(shape);
  t.m_numElements = productOf(t.m_shape);
  t.m_data = m_data;
  return t;
}

std::string Tensor::str(int64_t maxElements) const {
  if (m_kind == Kind::Token)
    return type().str();
  if (m_kind == Kind::Tuple) {
    std::string out = "(";
    for (size_t i = 0; i < m_tuple->size(); ++i)
      out += (i ? ", " : "") + (*m_tuple)[i].str(maxElements);
    return out + ")";
  }
  std::string out = type().str() + " [";
  for (int64_t i = 0; i < m_numElements; ++i) {
    if (i == maxElements) {
      out += ", ...";
      break;
    }
    if (i)
      out += ", ";
    out += formatElement(*this, i);
  }
  return out + "]";
}

int64_t ulpDistance(double a, double b, ElementType element) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<int64_t>::max();
  int64_t x = orderedBits(a, element);
  int64_t y = orderedBits(b, element);
  // Saturate instead of overflowing for values of opposite sign far apart.
  if ((x < 0) != (y < 0) &&
      (x > INT64_MAX / 2 || y > INT64_MAX / 2 || x < INT64_MIN / 2 || y < INT64_MIN / 2))
    return std::numeric_limits<int64_t>::max();
  return x > y ? x - y : y - x;
}

namespace {

bool floatsMatch(double e, double a, ElementType type, const CompareOptions& options) {
  if (std::isnan(e) || std::isnan(a))
    return std::isnan(e) && std::isnan(a);
  if (e == a)
    return true;
  double diff = std::fabs(e - a);
  if (diff <= options.absTolerance)
    return true;
  if (diff <= options.relTolerance * std::max(std::fabs(e), std::fabs(a)))
    return true;
  return std::isfinite(e) && std::isfinite(a) && ulpDistance(e, a, type) <= options.maxUlps;
}

std::string ulpText(double e, double a, ElementType type) {
  return std::to_string(ulpDistance(e, a, type)) + " ulps";
}

// Complex elements match part by part, each part under the float rules in the part type.
bool elementsMatch(const Tensor& expected, const Tensor& actual, int64_t i,
                   const CompareOptions& options) {
  ElementType e = expected.elementType();
  if (options.bounds && ir::isFloatElement(e)) {
    // The bound widens the absolute tolerance of this element only.
    CompareOptions widened = options;
    widened.bounds = nullptr;
    double bound = options.bounds->floatAt(i);
    widened.absTolerance += std::isnan(bound) ? std::numeric_limits<double>::infinity() : bound;
    // An unbounded element: the reordering can give any value there, a NaN or an infinity
    // included (a sum that overflows in one order and not in another; in a type without
    // infinity, such as f8E4M3FN, the overflow is a NaN).
    if (std::isinf(widened.absTolerance))
      return true;
    return floatsMatch(expected.floatAt(i), actual.floatAt(i), e, widened);
  }
  if (ir::isComplexElement(e)) {
    std::complex<double> x = expected.complexAt(i), y = actual.complexAt(i);
    ElementType part = complexPartType(e);
    return floatsMatch(x.real(), y.real(), part, options) &&
           floatsMatch(x.imag(), y.imag(), part, options);
  }
  if (ir::isFloatElement(e))
    return floatsMatch(expected.floatAt(i), actual.floatAt(i), e, options);
  return expected.intAt(i) == actual.intAt(i);
}

// The distance part of a mismatch message: ` (2 ulps)`, or per part for complex elements.
std::string distanceText(const Tensor& expected, const Tensor& actual, int64_t i) {
  ElementType e = expected.elementType();
  if (ir::isComplexElement(e)) {
    std::complex<double> x = expected.complexAt(i), y = actual.complexAt(i);
    ElementType part = complexPartType(e);
    return " (" + ulpText(x.real(), y.real(), part) + " real, " +
           ulpText(x.imag(), y.imag(), part) + " imaginary)";
  }
  if (ir::isFloatElement(e))
    return " (" + ulpText(expected.floatAt(i), actual.floatAt(i), e) + ")";
  return "";
}

// With per-element bounds: how far the element is off, against the bound it exceeds.
std::string boundText(const Tensor& expected, const Tensor& actual, int64_t i,
                      const CompareOptions& options) {
  if (!options.bounds || !ir::isFloatElement(expected.elementType()))
    return "";
  char text[160];
  std::snprintf(text, sizeof text, "; off by %.3g, beyond %.3g, ",
                std::fabs(expected.floatAt(i) - actual.floatAt(i)),
                options.bounds->floatAt(i) + options.absTolerance);
  return text + options.boundWhat;
}

} // namespace

ElementType complexPartType(ElementType element) {
  if (element == ElementType::Complex64)
    return ElementType::F32;
  if (element == ElementType::Complex128)
    return ElementType::F64;
  return element;
}

std::optional<ElementType> complexTypeOf(ElementType element) {
  if (element == ElementType::F32)
    return ElementType::Complex64;
  if (element == ElementType::F64)
    return ElementType::Complex128;
  return std::nullopt;
}

CompareResult compareTensors(const Tensor& expected, const Tensor& actual,
                             const CompareOptions& options) {
  CompareResult result;
  if (expected.elementType() != actual.elementType() || expected.shape() != actual.shape()) {
    result.equal = false;
    result.message = "expected type " + expected.type().str() + ", got " + actual.type().str();
    return result;
  }
  for (int64_t i = 0; i < expected.numElements(); ++i) {
    if (elementsMatch(expected, actual, i, options))
      continue;
    if (result.mismatches++ == 0)
      result.message = "element " + std::to_string(i) + ": expected " + formatElement(expected, i) +
                       ", got " + formatElement(actual, i) + distanceText(expected, actual, i) +
                       boundText(expected, actual, i, options);
    result.equal = false;
  }
  return result;
}

} // namespace shardscope::exec
