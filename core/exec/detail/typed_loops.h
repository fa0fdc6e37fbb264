#pragma once

// Typed loops for the elementwise kernels: the element type is dispatched once per op, then a
// plain loop over raw typed buffers runs that the compiler can vectorise. Kernels try these
// first and fall back to their per-element path (any element type, scalar operands, quantized
// and complex values) when `dispatch*` declines.

#include "core/exec/tensor.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace shardscope::exec::detail {

/// Calls `fn(T{})` with the C++ storage type of float element type `e` (`float` for f32,
/// `double` for f64) and returns true; returns false for every other element type.
template <typename Fn> bool dispatchFloat(ir::ElementType e, Fn&& fn) {
  switch (e) {
  case ir::ElementType::F32:
    fn(float{});
    return true;
  case ir::ElementType::F64:
    fn(double{});
    return true;
  default:
    return false;
  }
}

/// As `dispatchFloat`, for the byte-sized and wider integer types (not `i1`, whose byte holds a
/// truth value, nor the sub-byte integers).
template <typename Fn> bool dispatchInteger(ir::ElementType e, Fn&& fn) {
  switch (e) {
  case ir::ElementType::I8: fn(int8_t{}); return true;
  case ir::ElementType::I16: fn(int16_t{}); return true;
  case ir::ElementType::I32: fn(int32_t{}); return true;
  case ir::ElementType::I64: fn(int64_t{}); return true;
  case ir::ElementType::UI8: fn(uint8_t{}); return true;
  case ir::ElementType::UI16: fn(uint16_t{}); return true;
  case ir::ElementType::UI32: fn(uint32_t{}); return true;
  case ir::ElementType::UI64: fn(uint64_t{}); return true;
  default: return false;
  }
}

/// Either of the above.
template <typename Fn> bool dispatchNumeric(ir::ElementType e, Fn&& fn) {
  return dispatchFloat(e, fn) || dispatchInteger(e, fn);
}

/// `r[i] = f(x[i])` for `n` elements.
template <typename In, typename Out, typename F>
void mapUnary(const In* __restrict x, Out* __restrict r, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i)
    r[i] = f(x[i]);
}

/// `r[i] = f(a[i], b[i])` for `n` elements.
template <typename In, typename Out, typename F>
void mapBinary(const In* __restrict a, const In* __restrict b, Out* __restrict r, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i)
    r[i] = f(a[i], b[i]);
}

/// Integer arithmetic that wraps (two's complement) at the width of `T`, as StableHLO specifies:
/// computed on the unsigned type of the same width, where overflow is defined.
template <typename T> T wrapAdd(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <typename T> T wrapSub(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <typename T> T wrapMul(T a, T b) {
  using U = std::make_unsigned_t<T>;
  // At least unsigned int, so that narrow types do not promote to (overflowing) signed int.
  using W = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
  W product = static_cast<W>(static_cast<U>(a)) * static_cast<W>(static_cast<U>(b));
  return static_cast<T>(static_cast<U>(product));
}

/// f32 tanh without a call per element: a rational approximation (odd polynomial of degree 13
/// over an even one of degree 6) on inputs clamped to +-7.9, where tanh rounds to +-1 in f32.
/// Its error stays within 6 ulps (5 measured over [-12, 12]), far inside the 1e-4 StableHLO's tests accept (XLA's CPU
/// backend computes f32 tanh the same way). Tiny inputs return themselves (tanh(x) = x to f32
/// precision, denormals included), NaN stays NaN. Branch-free, so loops over it vectorise.
inline float fastTanh(float x) {
  constexpr float kClamp = 7.90531110763549805f;
  float c = x > kClamp ? kClamp : (x < -kClamp ? -kClamp : x);
  float x2 = c * c;
  float p = -2.76076847742355e-16f;
  p = p * x2 + 2.00018790482477e-13f;
  p = p * x2 + -8.60467152213735e-11f;
  p = p * x2 + 5.12229709037114e-08f;
  p = p * x2 + 1.48572235717979e-05f;
  p = p * x2 + 6.37261928875436e-04f;
  p = p * x2 + 4.89352455891786e-03f;
  p = p * c;
  float q = 1.19825839466702e-06f;
  q = q * x2 + 1.18534705686654e-04f;
  q = q * x2 + 2.26843463243900e-03f;
  q = q * x2 + 4.89352518554385e-03f;
  float t = p / q;
  float a = x < 0 ? -x : x;
  return a < 0.0004f || x != x ? x : t;
}

} // namespace shardscope::exec::detail
