#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace shardscope::support {

/// `a * b`, or nothing when the product does not fit in `int64_t`. Sizes (element counts, byte
/// counts, device counts) are products of numbers a user wrote; multiplying them unchecked is
/// undefined behaviour and turns into negative counts or huge allocations downstream.
inline std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out))
    return std::nullopt;
  return out;
}

/// `a + b`, or nothing when the sum does not fit in `int64_t`.
inline std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t out = 0;
  if (__builtin_add_overflow(a, b, &out))
    return std::nullopt;
  return out;
}

/// `a - b`, or nothing when the difference does not fit in `int64_t`.
inline std::optional<int64_t> checkedSub(int64_t a, int64_t b) {
  int64_t out = 0;
  if (__builtin_sub_overflow(a, b, &out))
    return std::nullopt;
  return out;
}

/// The product of `sizes` (1 for none), or nothing when a size is negative or the product does
/// not fit in `int64_t`: the element count of a shape or the device count of a mesh.
inline std::optional<int64_t> checkedProduct(std::span<const int64_t> sizes) {
  int64_t out = 1;
  for (int64_t size : sizes) {
    if (size < 0)
      return std::nullopt;
    std::optional<int64_t> next = checkedMul(out, size);
    if (!next)
      return std::nullopt;
    out = *next;
  }
  return out;
}

} // namespace shardscope::support
