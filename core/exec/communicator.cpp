#include "core/exec/communicator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace shardscope::exec {

namespace {

// The generic per-element semantics, the reference every typed loop below must match: floats
// are combined in double and rounded once per combination, Maximum/Minimum propagate NaN,
// integers wrap (through uint64) and compare signed or unsigned by type, `And`/`Or` are bitwise
// on the integer value (bit 0 for `i1`), and a logical kind on a float keeps `lhs`.
template <typename T> T apply(Reduction::Kind kind, T a, T b) {
  switch (kind) {
  case Reduction::Kind::Add:
    return static_cast<T>(a + b);
  case Reduction::Kind::Multiply:
    return static_cast<T>(a * b);
  case Reduction::Kind::Maximum:
    return std::max(a, b);
  case Reduction::Kind::Minimum:
    return std::min(a, b);
  default:
    return a;
  }
}

double floatOp(Reduction::Kind kind, double a, double b) {
  switch (kind) {
  case Reduction::Kind::Maximum:
    return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
  case Reduction::Kind::Minimum:
    return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
  default:
    return apply<double>(kind, a, b);
  }
}

void combineGeneric(Reduction::Kind kind, const Tensor& lhs, const Tensor& rhs, Tensor& out,
                    int64_t begin, int64_t end) {
  ir::ElementType e = lhs.elementType();
  bool isFloat = ir::isFloatElement(e);
  bool isUnsigned = e == ir::ElementType::UI8 || e == ir::ElementType::UI16 ||
                    e == ir::ElementType::UI32 || e == ir::ElementType::UI64 ||
                    e == ir::ElementType::I1;
  for (int64_t i = begin; i < end; ++i) {
    if (isFloat) {
      out.setFloat(i, floatOp(kind, lhs.floatAt(i), rhs.floatAt(i)));
      continue;
    }
    int64_t a = lhs.intAt(i), b = rhs.intAt(i);
    int64_t r = 0;
    if (kind == Reduction::Kind::And)
      r = a & b;
    else if (kind == Reduction::Kind::Or)
      r = a | b;
    else if (kind == Reduction::Kind::Maximum || kind == Reduction::Kind::Minimum) {
      bool less = isUnsigned ? static_cast<uint64_t>(a) < static_cast<uint64_t>(b) : a < b;
      r = (kind == Reduction::Kind::Maximum) == less ? b : a;
    } else
      r = static_cast<int64_t>(apply<uint64_t>(kind, static_cast<uint64_t>(a),
                                               static_cast<uint64_t>(b)));
    out.setInt(i, r);
  }
}

// One tight loop per (kind, element type) so that the compiler vectorises it; `out` may alias
// `a` (element i reads only element i).
template <typename T, typename Op> void loop(T* out, const T* a, const T* b, int64_t n, Op op) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = op(a[i], b[i]);
}

// `acc[i] = op(...op(op(acc[i], r[0][i]), r[1][i])..., r[K-1][i])`: K contributions in one pass
// over `acc`, combined left to right exactly as K single passes would.
template <int K, typename T, typename Op>
void loopMany(T* __restrict acc, const T* const* r, int64_t n, Op op) {
  const T* __restrict r0 = r[0];
  const T* __restrict r1 = r[K > 1 ? 1 : 0];
  const T* __restrict r2 = r[K > 2 ? 2 : 0];
  const T* __restrict r3 = r[K > 3 ? 3 : 0];
  for (int64_t i = 0; i < n; ++i) {
    T v = op(acc[i], r0[i]);
    if constexpr (K > 1)
      v = op(v, r1[i]);
    if constexpr (K > 2)
      v = op(v, r2[i]);
    if constexpr (K > 3)
      v = op(v, r3[i]);
    acc[i] = v;
  }
}

// Applies `op` for every contribution in `r` (count `m`), four per pass.
template <typename T, typename Op>
void loopAll(T* acc, const T* const* r, size_t m, int64_t n, Op op) {
  for (size_t j = 0; j < m; j += 4) {
    switch (std::min<size_t>(4, m - j)) {
    case 1:
      loopMany<1>(acc, r + j, n, op);
      break;
    case 2:
      loopMany<2>(acc, r + j, n, op);
      break;
    case 3:
      loopMany<3>(acc, r + j, n, op);
      break;
    default:
      loopMany<4>(acc, r + j, n, op);
      break;
    }
  }
}

// Calls `f(op)` with the typed binary operation of `kind` on `T` and returns true, or returns
// false when there is none (logical kinds on floats).
//
// f32 and f64 compute in the element type itself. For f32 this equals the reference's "compute
// in double, round once": double has more than 2 * 24 + 2 significand bits, so rounding the
// exact double sum or product to float gives the correctly rounded float result (Figueroa, "When
// is double rounding innocuous?", 1995). Integers use wrapping arithmetic in the unsigned type
// (promoted to at least 32 bits so that small types never overflow a signed int) and compare in
// `T` itself.
template <typename T, typename F> bool withOp(Reduction::Kind kind, F&& f) {
  using K = Reduction::Kind;
  if constexpr (std::is_floating_point_v<T>) {
    constexpr T kNaN = std::numeric_limits<T>::quiet_NaN();
    switch (kind) {
    case K::Add:
      f([](T x, T y) { return x + y; });
      return true;
    case K::Multiply:
      f([](T x, T y) { return x * y; });
      return true;
    case K::Maximum: // keeps `x` on ties (-0 vs +0), as std::max in the reference
      f([](T x, T y) { return x != x || y != y ? kNaN : (x < y ? y : x); });
      return true;
    case K::Minimum:
      f([](T x, T y) { return x != x || y != y ? kNaN : (y < x ? y : x); });
      return true;
    default:
      return false;
    }
  } else {
    using W = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;
    switch (kind) {
    case K::Add:
      f([](T x, T y) { return static_cast<T>(W(x) + W(y)); });
      return true;
    case K::Multiply:
      f([](T x, T y) { return static_cast<T>(W(x) * W(y)); });
      return true;
    case K::Maximum:
      f([](T x, T y) { return x < y ? y : x; });
      return true;
    case K::Minimum:
      f([](T x, T y) { return y < x ? y : x; });
      return true;
    case K::And:
      f([](T x, T y) { return static_cast<T>(x & y); });
      return true;
    case K::Or:
      f([](T x, T y) { return static_cast<T>(x | y); });
      return true;
    default:
      return false;
    }
  }
}

// Calls `f(T{})` for the element types with typed loops and returns its result; returns false
// for the others (f16, bf16, i1), which take the generic path.
template <typename F> bool withElementType(ir::ElementType e, F&& f) {
  using E = ir::ElementType;
  switch (e) {
  case E::F32:
    return f(float{});
  case E::F64:
    return f(double{});
  case E::I8:
    return f(int8_t{});
  case E::I16:
    return f(int16_t{});
  case E::I32:
    return f(int32_t{});
  case E::I64:
    return f(int64_t{});
  case E::UI8:
    return f(uint8_t{});
  case E::UI16:
    return f(uint16_t{});
  case E::UI32:
    return f(uint32_t{});
  case E::UI64:
    return f(uint64_t{});
  default:
    return false;
  }
}

void combineRange(Reduction::Kind kind, const Tensor& lhs, const Tensor& rhs, Tensor& out,
                  int64_t begin, int64_t end) {
  bool typed = withElementType(lhs.elementType(), [&](auto tag) {
    using T = decltype(tag);
    return withOp<T>(kind, [&](auto op) {
      loop(out.data<T>() + begin, lhs.data<T>() + begin, rhs.data<T>() + begin, end - begin, op);
    });
  });
  if (!typed)
    combineGeneric(kind, lhs, rhs, out, begin, end);
}

} // namespace

void reduceInto(Reduction::Kind kind, Tensor& acc, const Tensor& rhs) {
  reduceInto(kind, acc, rhs, 0, acc.numElements());
}

void reduceInto(Reduction::Kind kind, Tensor& acc, const Tensor& rhs, int64_t begin,
                int64_t end) {
  // Element i of the output depends only on element i of the inputs, so writing into `acc`
  // while reading it is safe, and so is running disjoint ranges on different threads.
  combineRange(kind, acc, rhs, acc, begin, end);
}

void reduceInto(Reduction::Kind kind, Tensor& acc, std::span<const Tensor* const> rhs,
                int64_t begin, int64_t end) {
  bool typed = withElementType(acc.elementType(), [&](auto tag) {
    using T = decltype(tag);
    constexpr size_t kMaxFused = 64;
    if (rhs.size() > kMaxFused)
      return false;
    const T* pointers[kMaxFused];
    for (size_t j = 0; j < rhs.size(); ++j)
      pointers[j] = rhs[j]->template data<T>() + begin;
    return withOp<T>(kind, [&](auto op) {
      loopAll(acc.data<T>() + begin, pointers, rhs.size(), end - begin, op);
    });
  });
  if (!typed)
    for (const Tensor* r : rhs)
      combineRange(kind, acc, *r, acc, begin, end);
}

std::string deviceListText(std::vector<int64_t> ids) {
  std::sort(ids.begin(), ids.end());
  std::string s = ids.size() == 1 ? "device " : "devices ";
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
      ++j;
    s += (i ? "," : "") + std::to_string(ids[i]);
    if (j >= i + 2)
      s += "-" + std::to_string(ids[j]);
    else if (j == i + 1)
      s += "," + std::to_string(ids[j]);
    i = j + 1;
  }
  return s;
}

std::string deviceGroupText(const std::vector<int64_t>& ids) {
  std::string s = "[";
  for (size_t i = 0; i < ids.size(); ++i)
    s += (i ? ", " : "") + std::to_string(ids[i]);
  return s + "]";
}

std::string opText(const std::string& name, const std::string& where) {
  return "'" + name + "'" + (where.empty() ? "" : " at " + where);
}

Reduction builtinReduction(Reduction::Kind kind) {
  Reduction r;
  r.kind = kind;
  r.combine = [kind](const std::vector<Tensor>& lhs,
                     const std::vector<Tensor>& rhs) -> std::optional<std::vector<Tensor>> {
    std::vector<Tensor> out;
    out.reserve(lhs.size());
    for (size_t i = 0; i < lhs.size() && i < rhs.size(); ++i) {
      Tensor t(lhs[i].elementType(), lhs[i].shape());
      combineRange(kind, lhs[i], rhs[i], t, 0, t.numElements());
      out.push_back(std::move(t));
    }
    return out;
  };
  return r;
}

} // namespace shardscope::exec
