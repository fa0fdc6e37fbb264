#include "core/ir/minifloat.h"

#include <array>
#include <cmath>
#include <limits>

namespace shardscope::ir {

namespace {

// Which encodings are not finite numbers (LLVM's fltNonfiniteBehavior plus its NaN encodings).
enum class Special {
  Ieee,        ///< all-ones exponent: infinity (zero mantissa) or NaN
  NanAllOnes,  ///< no infinity; only sign + all-ones exponent and mantissa is NaN ("FN")
  NanNegZero,  ///< no infinity, no negative zero; the negative-zero encoding is NaN ("FNUZ")
  FiniteOnly,  ///< every encoding is a number
  ExponentOnly ///< unsigned, no mantissa, no zero; all ones is NaN (f8E8M0FNU)
};

struct Format {
  int exponentBits;
  int mantissaBits;
  int bias;
  Special special;
};

const Format* formatOf(ElementType type) {
  static const Format e4m3fn{4, 3, 7, Special::NanAllOnes};
  static const Format e5m2{5, 2, 15, Special::Ieee};
  static const Format e4m3fnuz{4, 3, 8, Special::NanNegZero};
  static const Format e5m2fnuz{5, 2, 16, Special::NanNegZero};
  static const Format e4m3b11fnuz{4, 3, 11, Special::NanNegZero};
  static const Format e3m4{3, 4, 3, Special::Ieee};
  static const Format e4m3{4, 3, 7, Special::Ieee};
  static const Format e8m0fnu{8, 0, 127, Special::ExponentOnly};
  static const Format e2m3fn{2, 3, 1, Special::FiniteOnly};
  static const Format e3m2fn{3, 2, 3, Special::FiniteOnly};
  static const Format e2m1fn{2, 1, 1, Special::FiniteOnly};
  switch (type) {
  case ElementType::F8E4M3FN: return &e4m3fn;
  case ElementType::F8E5M2: return &e5m2;
  case ElementType::F8E4M3FNUZ: return &e4m3fnuz;
  case ElementType::F8E5M2FNUZ: return &e5m2fnuz;
  case ElementType::F8E4M3B11FNUZ: return &e4m3b11fnuz;
  case ElementType::F8E3M4: return &e3m4;
  case ElementType::F8E4M3: return &e4m3;
  case ElementType::F8E8M0FNU: return &e8m0fnu;
  case ElementType::F6E2M3FN: return &e2m3fn;
  case ElementType::F6E3M2FN: return &e3m2fn;
  case ElementType::F4E2M1FN: return &e2m1fn;
  default: return nullptr;
  }
}

int signBit(const Format& f) {
  return f.special == Special::ExponentOnly ? -1 : f.exponentBits + f.mantissaBits;
}

double decode(uint8_t bits, const Format& f) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  int sb = signBit(f);
  unsigned expMax = (1u << f.exponentBits) - 1;
  unsigned mantMax = (1u << f.mantissaBits) - 1;
  bool negative = sb >= 0 && ((bits >> sb) & 1);
  unsigned e = (bits >> f.mantissaBits) & expMax;
  unsigned m = bits & mantMax;
  switch (f.special) {
  case Special::ExponentOnly:
    return e == expMax ? nan : std::ldexp(1.0, static_cast<int>(e) - f.bias);
  case Special::Ieee:
    if (e == expMax)
      return m ? nan : (negative ? -HUGE_VAL : HUGE_VAL);
    break;
  case Special::NanAllOnes:
    if (e == expMax && m == mantMax)
      return nan;
    break;
  case Special::NanNegZero:
    if (negative && e == 0 && m == 0)
      return nan;
    break;
  case Special::FiniteOnly:
    break;
  }
  double magnitude = e == 0 ? std::ldexp(static_cast<double>(m), 1 - f.bias - f.mantissaBits)
                            : std::ldexp(static_cast<double>(m + (mantMax + 1)),
                                         static_cast<int>(e) - f.bias - f.mantissaBits);
  return negative ? -magnitude : magnitude;
}

// The largest finite magnitude's (exponent field, mantissa field).
std::pair<unsigned, unsigned> largestFinite(const Format& f) {
  unsigned expMax = (1u << f.exponentBits) - 1;
  unsigned mantMax = (1u << f.mantissaBits) - 1;
  switch (f.special) {
  case Special::Ieee: return {expMax - 1, mantMax};
  case Special::NanAllOnes: return {expMax, mantMax - 1};
  default: return {expMax, mantMax};
  }
}

uint8_t nanBits(const Format& f) {
  int sb = signBit(f);
  switch (f.special) {
  case Special::Ieee:
    return static_cast<uint8_t>((((1u << f.exponentBits) - 1) << f.mantissaBits) |
                                (1u << (f.mantissaBits - 1)));
  case Special::NanAllOnes: return static_cast<uint8_t>((1u << sb) - 1);
  case Special::NanNegZero: return static_cast<uint8_t>(1u << sb);
  case Special::ExponentOnly: return 0xFF;
  case Special::FiniteOnly: return 0;
  }
  return 0;
}

uint8_t encode(double value, const Format& f) {
  if (std::isnan(value))
    return nanBits(f);
  int sb = signBit(f);
  bool negative = std::signbit(value);
  if (f.special == Special::ExponentOnly) {
    if (negative || value == 0)
      return negative && value != 0 ? nanBits(f) : 0; // no zero: the smallest value
    int exp = 0;
    double frac = std::frexp(value, &exp); // value = frac * 2^exp, frac in [0.5, 1)
    int e = exp - 1 + (frac * 2 >= 1.5 ? 1 : 0) + f.bias; // 1.5 ties to the even 2
    if (std::isinf(value) || e >= 255)
      return nanBits(f);
    return static_cast<uint8_t>(e < 0 ? 0 : e);
  }
  double magnitude = std::fabs(value);
  // Plain variables, not a structured binding: lambdas may not capture those before C++20's
  // P1091 (clang 14 refuses).
  const std::pair<unsigned, unsigned> finiteMax = largestFinite(f);
  const unsigned maxExp = finiteMax.first;
  const unsigned maxMant = finiteMax.second;
  uint8_t sign = negative ? static_cast<uint8_t>(1u << sb) : 0;
  auto overflow = [&]() -> uint8_t {
    if (f.special == Special::Ieee)
      return static_cast<uint8_t>(sign | ((((1u << f.exponentBits) - 1)) << f.mantissaBits));
    if (f.special == Special::FiniteOnly)
      return static_cast<uint8_t>(sign | (maxExp << f.mantissaBits) | maxMant);
    return nanBits(f) | (f.special == Special::NanAllOnes ? sign : 0);
  };
  if (std::isinf(magnitude))
    return overflow();
  // Quantum of the binade holding the value (subnormals share the smallest normal binade's).
  int minExp = 1 - f.bias;
  int exp = magnitude == 0 ? minExp : std::ilogb(magnitude);
  if (exp < minExp)
    exp = minExp;
  double n = std::nearbyint(std::ldexp(magnitude, f.mantissaBits - exp)); // ties to even
  double rounded = std::ldexp(n, exp - f.mantissaBits);
  double largest = decode(static_cast<uint8_t>((maxExp << f.mantissaBits) | maxMant), f);
  if (rounded > largest)
    return overflow();
  if (rounded == 0)
    return f.special == Special::NanNegZero ? 0 : sign;
  unsigned implicitOne = 1u << f.mantissaBits;
  auto count = static_cast<unsigned>(n);
  unsigned e = 0, m = count;
  if (count >= implicitOne) { // normal (a carry into the next binade is handled below)
    e = static_cast<unsigned>(exp + f.bias);
    m = count - implicitOne;
    if (m >= implicitOne) {
      ++e;
      m = 0;
    }
  }
  return static_cast<uint8_t>(sign | (e << f.mantissaBits) | m);
}

} // namespace

bool isMiniFloat(ElementType type) { return formatOf(type) != nullptr; }

double miniFloatToDouble(uint8_t bits, ElementType type) {
  // Decoding runs per element in kernels: one table of 256 values per format.
  static const auto tables = [] {
    std::array<std::array<double, 256>, 64> t{};
    for (int ty = 0; ty < 64; ++ty)
      if (const Format* f = formatOf(static_cast<ElementType>(ty)))
        for (int b = 0; b < 256; ++b)
          t[ty][b] = decode(static_cast<uint8_t>(b), *f);
    return t;
  }();
  int bitsUsed = ir::elementBitWidth(type);
  uint8_t masked = bitsUsed >= 8 ? bits : static_cast<uint8_t>(bits & ((1u << bitsUsed) - 1));
  return tables[static_cast<size_t>(type)][masked];
}

uint8_t miniFloatFromDouble(double value, ElementType type) {
  return encode(value, *formatOf(type));
}

int miniFloatMantissaBits(ElementType type) {
  const Format* f = formatOf(type);
  return f ? f->mantissaBits : 0;
}

int miniFloatSignBit(ElementType type) {
  const Format* f = formatOf(type);
  return f ? signBit(*f) : -1;
}

} // namespace shardscope::ir
