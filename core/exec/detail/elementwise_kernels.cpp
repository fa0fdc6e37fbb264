// Elementwise StableHLO ops. Operands of one element type and the result's shape take a typed
// loop (`typed_loops.h`): f32 and f64 in their own precision (+, -, *, / and sqrt are correctly
// rounded either way; f32 exp, log, logistic and the like use the f32 math library, f32 tanh a
// rational approximation, all within a few ulps), integers wrapping at their width. Everything
// else (f16, bf16, the small floats, sub-byte integers, i1, scalar operands) is computed in
// double and rounded once to the result type, integers on 64 bits (sign- or zero-extended) and
// truncated to the result width, which is two's complement wrap-around as StableHLO specifies.
// Complex operands go to `complexElementwise` (complex_kernels.cpp).
#include "core/exec/detail/kernel.h"
#include "core/exec/detail/typed_loops.h"

#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

namespace shardscope::exec::detail {

namespace {

using ir::ElementType;

bool isFloat(const Tensor& t) { return ir::isFloatElement(t.elementType()); }
bool isUnsigned(const Tensor& t) {
  return ir::isUnsignedElement(t.elementType()) || t.elementType() == ElementType::I1;
}

// Operands of elementwise ops must have the result's shape; scalars are allowed where the spec
// allows them (select's predicate, clamp's bounds) and are read at index 0.
int64_t at(const Tensor& t, int64_t i) { return t.numElements() == 1 ? 0 : i; }

bool checkShapes(KernelContext& ctx, const Tensor& result) {
  for (const Tensor& operand : ctx.operands)
    if (operand.numElements() != 1 && operand.shape() != result.shape())
      return ctx.fail("operand shape " + operand.type().str() + " does not match result " +
                      result.type().str());
  return true;
}

// Complex operands, or a complex result, take the complex path.
bool isComplexCall(const KernelContext& ctx) {
  for (const Tensor& t : ctx.operands)
    if (ir::isComplexElement(t.elementType()))
      return true;
  ir::Type type = ctx.op.numResults() == 1 ? ctx.op.result(0)->type() : ir::Type();
  return type.isTensor() && ir::isComplexElement(type.elementType());
}

// Which element types a typed form of an op covers.
enum class Typed { Floats, Integers, Numbers };

// The typed loop of an op whose `Arity` operands all have the result's type and shape (the
// common case): `fast(x)` or `fast(a, b)` on the elements' C++ type. Returns false, having done
// nothing, when the op does not qualify; the caller then takes the per-element path.
template <int Arity, Typed kTyped, typename Fast> bool typedElementwise(KernelContext& ctx, Fast fast) {
  if (ctx.dequantized || ctx.op.numResults() != 1 || ctx.operands.size() != Arity)
    return false;
  const Tensor& a = ctx.operands[0];
  const Tensor& b = ctx.operands.back();
  if (a.isToken() || a.isTuple() || b.elementType() != a.elementType() || b.shape() != a.shape() ||
      ctx.op.result(0)->type() != a.type())
    return false;
  Tensor out = Tensor::uninitialized(a.elementType(), a.shape());
  auto run = [&](auto tag) {
    using T = decltype(tag);
    if constexpr (Arity == 1)
      mapUnary(a.data<T>(), out.data<T>(), a.numElements(), [&](T x) { return fast(x); });
    else
      mapBinary(a.data<T>(), b.data<T>(), out.data<T>(), a.numElements(),
                [&](T x, T y) { return fast(x, y); });
  };
  bool done = false;
  if constexpr (kTyped == Typed::Floats)
    done = dispatchFloat(a.elementType(), run);
  else if constexpr (kTyped == Typed::Integers)
    done = dispatchInteger(a.elementType(), run);
  else
    done = dispatchNumeric(a.elementType(), run);
  if (done)
    ctx.results.push_back(std::move(out));
  return done;
}

template <typename FloatFn, typename IntFn>
bool unary(KernelContext& ctx, FloatFn floatFn, IntFn intFn) {
  if (isComplexCall(ctx))
    return complexElementwise(ctx);
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  if (ctx.operands.size() != 1)
    return ctx.fail("expected one operand");
  if (!checkShapes(ctx, *out))
    return false;
  const Tensor& x = ctx.operands[0];
  if (isFloat(x)) {
    for (int64_t i = 0; i < out->numElements(); ++i)
      out->setFloat(i, floatFn(x.floatAt(i)));
  } else {
    bool u = isUnsigned(x);
    for (int64_t i = 0; i < out->numElements(); ++i)
      out->setInt(i, intFn(x.intAt(i), u));
  }
  ctx.results.push_back(std::move(*out));
  return true;
}

template <typename FloatFn, typename IntFn>
bool binary(KernelContext& ctx, FloatFn floatFn, IntFn intFn) {
  if (isComplexCall(ctx))
    return complexElementwise(ctx);
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  if (ctx.operands.size() != 2)
    return ctx.fail("expected two operands");
  if (!checkShapes(ctx, *out))
    return false;
  const Tensor& a = ctx.operands[0];
  const Tensor& b = ctx.operands[1];
  if (isFloat(a)) {
    for (int64_t i = 0; i < out->numElements(); ++i)
      out->setFloat(i, floatFn(a.floatAt(at(a, i)), b.floatAt(at(b, i))));
  } else {
    bool u = isUnsigned(a);
    for (int64_t i = 0; i < out->numElements(); ++i)
      out->setInt(i, intFn(a.intAt(at(a, i)), b.intAt(at(b, i)), u));
  }
  ctx.results.push_back(std::move(*out));
  return true;
}

int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
bool less(int64_t a, int64_t b, bool u) {
  return u ? static_cast<uint64_t>(a) < static_cast<uint64_t>(b) : a < b;
}

// StableHLO: x / 0 is all ones (-1), INT_MIN / -1 is INT_MIN; x % 0 is x, INT_MIN % -1 is 0.
// Operands are already extended to 64 bits, so 64-bit overflow only happens for i64 itself.
int64_t intDiv(int64_t a, int64_t b, bool u) {
  if (b == 0)
    return -1;
  if (u)
    return static_cast<int64_t>(static_cast<uint64_t>(a) / static_cast<uint64_t>(b));
  if (a == std::numeric_limits<int64_t>::min() && b == -1)
    return a;
  return a / b;
}
int64_t intRem(int64_t a, int64_t b, bool u) {
  if (b == 0)
    return a;
  if (u)
    return static_cast<int64_t>(static_cast<uint64_t>(a) % static_cast<uint64_t>(b));
  if (b == -1)
    return 0;
  return a % b;
}

int64_t intPow(int64_t base, int64_t exp, bool u) {
  if (!u && exp < 0)
    return base == 1 ? 1 : base == -1 ? (exp % 2 ? -1 : 1) : 0;
  uint64_t result = 1, b = static_cast<uint64_t>(base), e = static_cast<uint64_t>(exp);
  while (e) {
    if (e & 1)
      result *= b;
    b *= b;
    e >>= 1;
  }
  return static_cast<int64_t>(result);
}

// Elementwise min/max propagate NaN (StableHLO follows IEEE-754 2019 minimum/maximum).
double fmaxNan(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b) // +0 > -0
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
double fminNan(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

double fsign(double x) {
  if (std::isnan(x) || x == 0)
    return x;
  return x > 0 ? 1.0 : -1.0;
}

int64_t noInt(int64_t v, bool) { return v; }

// Typed forms of the ops above, on an element's own C++ type.
template <typename T> T typedMax(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a != a || b != b)
      return std::numeric_limits<T>::quiet_NaN();
    if (a == b) // +0 > -0
      return std::signbit(a) ? b : a;
  }
  return a < b ? b : a;
}
template <typename T> T typedMin(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a != a || b != b)
      return std::numeric_limits<T>::quiet_NaN();
    if (a == b)
      return std::signbit(a) ? a : b;
  }
  return a < b ? a : b;
}
template <typename T> T typedSign(T x) {
  if constexpr (std::is_floating_point_v<T>)
    return x != x || x == 0 ? x : (x > 0 ? T(1) : T(-1));
  else if constexpr (std::is_unsigned_v<T>)
    return x != 0;
  else
    return static_cast<T>((x > 0) - (x < 0));
}
template <typename T> T typedAbs(T x) {
  if constexpr (std::is_floating_point_v<T>)
    return std::fabs(x);
  else if constexpr (std::is_unsigned_v<T>)
    return x;
  else
    return x < 0 ? wrapSub(T(0), x) : x;
}

template <Typed kTyped, typename Fast, typename FloatFn, typename IntFn>
bool binaryTyped(KernelContext& ctx, Fast fast, FloatFn floatFn, IntFn intFn) {
  return typedElementwise<2, kTyped>(ctx, fast) || binary(ctx, floatFn, intFn);
}
template <Typed kTyped, typename Fast, typename FloatFn, typename IntFn>
bool unaryTyped(KernelContext& ctx, Fast fast, FloatFn floatFn, IntFn intFn) {
  return typedElementwise<1, kTyped>(ctx, fast) || unary(ctx, floatFn, intFn);
}

void registerArithmetic(std::map<std::string, Kernel, std::less<>>& t) {
  // On i1, StableHLO's reference adds as logical or (true + true is true); i1 never takes the
  // typed loop.
  t["stablehlo.add"] = [](KernelContext& c) {
    bool isBool = !c.operands.empty() && c.operands[0].elementType() == ElementType::I1;
    return binaryTyped<Typed::Numbers>(
        c,
        [](auto a, auto b) {
          if constexpr (std::is_floating_point_v<decltype(a)>)
            return a + b;
          else
            return detail::wrapAdd(a, b);
        },
        [](double a, double b) { return a + b; },
        [isBool](int64_t a, int64_t b, bool) { return isBool ? (a | b) : wrapAdd(a, b); });
  };
  t["stablehlo.subtract"] = [](KernelContext& c) {
    return binaryTyped<Typed::Numbers>(
        c,
        [](auto a, auto b) {
          if constexpr (std::is_floating_point_v<decltype(a)>)
            return a - b;
          else
            return detail::wrapSub(a, b);
        },
        [](double a, double b) { return a - b; },
        [](int64_t a, int64_t b, bool) { return wrapSub(a, b); });
  };
  t["stablehlo.multiply"] = [](KernelContext& c) {
    return binaryTyped<Typed::Numbers>(
        c,
        [](auto a, auto b) {
          if constexpr (std::is_floating_point_v<decltype(a)>)
            return a * b;
          else
            return detail::wrapMul(a, b);
        },
        [](double a, double b) { return a * b; },
        [](int64_t a, int64_t b, bool) { return wrapMul(a, b); });
  };
  t["stablehlo.divide"] = [](KernelContext& c) {
    return binaryTyped<Typed::Floats>(
        c, [](auto a, auto b) { return a / b; },
        [](double a, double b) { return a / b; }, intDiv);
  };
  t["stablehlo.remainder"] = [](KernelContext& c) {
    return binaryTyped<Typed::Floats>(
        c, [](auto a, auto b) { return std::fmod(a, b); },
        [](double a, double b) { return std::fmod(a, b); }, intRem);
  };
  t["stablehlo.maximum"] = [](KernelContext& c) {
    return binaryTyped<Typed::Numbers>(
        c, [](auto a, auto b) { return typedMax(a, b); }, fmaxNan,
        [](int64_t a, int64_t b, bool u) { return less(a, b, u) ? b : a; });
  };
  t["stablehlo.minimum"] = [](KernelContext& c) {
    return binaryTyped<Typed::Numbers>(
        c, [](auto a, auto b) { return typedMin(a, b); }, fminNan,
        [](int64_t a, int64_t b, bool u) { return less(a, b, u) ? a : b; });
  };
  t["stablehlo.power"] = [](KernelContext& c) {
    return binary(
        c, [](double a, double b) { return std::pow(a, b); }, intPow);
  };
  t["stablehlo.atan2"] = [](KernelContext& c) {
    return binary(
        c, [](double a, double b) { return std::atan2(a, b); },
        [](int64_t a, int64_t, bool) { return a; });
  };
}

void registerBitwise(std::map<std::string, Kernel, std::less<>>& t) {
  // The typed loops only see byte-wide and wider integers; i1 takes the per-element path.
  t["stablehlo.and"] = [](KernelContext& c) {
    if (c.operands.empty() || isFloat(c.operands[0]))
      return c.fail("expected integer or boolean operands");
    return binaryTyped<Typed::Integers>(
        c, [](auto a, auto b) { return static_cast<decltype(a)>(a & b); },
        [](double a, double) { return a; }, [](int64_t a, int64_t b, bool) { return a & b; });
  };
  t["stablehlo.or"] = [](KernelContext& c) {
    if (c.operands.empty() || isFloat(c.operands[0]))
      return c.fail("expected integer or boolean operands");
    return binaryTyped<Typed::Integers>(
        c, [](auto a, auto b) { return static_cast<decltype(a)>(a | b); },
        [](double a, double) { return a; }, [](int64_t a, int64_t b, bool) { return a | b; });
  };
  t["stablehlo.xor"] = [](KernelContext& c) {
    if (c.operands.empty() || isFloat(c.operands[0]))
      return c.fail("expected integer or boolean operands");
    return binaryTyped<Typed::Integers>(
        c, [](auto a, auto b) { return static_cast<decltype(a)>(a ^ b); },
        [](double a, double) { return a; }, [](int64_t a, int64_t b, bool) { return a ^ b; });
  };
  t["stablehlo.not"] = [](KernelContext& c) {
    if (c.operands.empty() || isFloat(c.operands[0]))
      return c.fail("expected integer or boolean operand");
    return unary(
        c, [](double a) { return a; }, [](int64_t a, bool) { return ~a; });
  };
}

double logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double rsqrt(double x) { return 1.0 / std::sqrt(x); }
double roundAfz(double x) { return std::round(x); }
double roundEven(double x) { return std::nearbyint(x); }
double dexp(double x) { return std::exp(x); }
double dexpm1(double x) { return std::expm1(x); }
double dlog(double x) { return std::log(x); }
double dlog1p(double x) { return std::log1p(x); }
double dtanh(double x) { return std::tanh(x); }
double dsqrt(double x) { return std::sqrt(x); }
double dcbrt(double x) { return std::cbrt(x); }
double dsin(double x) { return std::sin(x); }
double dcos(double x) { return std::cos(x); }
double dtan(double x) { return std::tan(x); }
double dfloor(double x) { return std::floor(x); }
double dceil(double x) { return std::ceil(x); }

// A float-only op: `D` on doubles for the per-element path, `fast` on f32/f64 elements.
template <double (*D)(double), typename Fast> bool floatUnary(KernelContext& c, Fast fast) {
  if (isComplexCall(c))
    return complexElementwise(c);
  if (c.operands.empty() || !isFloat(c.operands[0]))
    return c.fail("expected a floating-point operand");
  return unaryTyped<Typed::Floats>(
        c, fast, D, noInt);
}

// The operand of a one-operand op whose f32 result has the operand's type, or null (the op then
// takes the typed or the per-element path).
const Tensor* plainF32Operand(const KernelContext& ctx) {
  if (ctx.dequantized || ctx.op.numResults() != 1 || ctx.operands.size() != 1)
    return nullptr;
  const Tensor& x = ctx.operands[0];
  if (x.isToken() || x.isTuple() || x.elementType() != ElementType::F32 ||
      ctx.op.result(0)->type() != x.type())
    return nullptr;
  return &x;
}

// f32 tanh over a buffer, built for AVX-512, AVX2 and the baseline ISA and chosen by the CPU at
// load time (GCC function multiversioning): NumPy's tanh uses the widest vectors it finds too.
// This file is built with -ffp-contract=off, so no version fuses a multiply-add and every
// version rounds as the baseline does: results do not depend on the machine.
__attribute__((target_clones("avx512f", "avx2", "default"))) void
tanhF32(const float* __restrict x, float* __restrict r, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    r[i] = fastTanh(x[i]);
}

// f32 transcendental functions in f32 (the C library's, within an ulp or two, or `fastTanh`);
// f64 in f64. sqrt and rsqrt of f32 go through double, which rounds them correctly.
template <typename T> T typedLogistic(T x) { return T(1) / (T(1) + std::exp(-x)); }
template <typename T> T typedTanh(T x) {
  if constexpr (std::is_same_v<T, float>)
    return fastTanh(x);
  else
    return std::tanh(x);
}
template <typename T> T typedRsqrt(T x) {
  return static_cast<T>(1.0 / std::sqrt(static_cast<double>(x)));
}

void registerUnary(std::map<std::string, Kernel, std::less<>>& t) {
  t["stablehlo.negate"] = [](KernelContext& c) {
    return unaryTyped<Typed::Numbers>(
        c,
        [](auto x) {
          using T = decltype(x);
          if constexpr (std::is_floating_point_v<T>)
            return -x;
          else
            return detail::wrapSub(T(0), x);
        },
        [](double x) { return -x; }, [](int64_t x, bool) { return wrapSub(0, x); });
  };
  t["stablehlo.abs"] = [](KernelContext& c) {
    return unaryTyped<Typed::Numbers>(
        c, [](auto x) { return typedAbs(x); },
        [](double x) { return std::fabs(x); },
        [](int64_t x, bool u) { return u || x >= 0 ? x : wrapSub(0, x); });
  };
  t["stablehlo.sign"] = [](KernelContext& c) {
    return unaryTyped<Typed::Numbers>(
        c, [](auto x) { return typedSign(x); }, fsign,
        [](int64_t x, bool u) -> int64_t { return u ? (x != 0) : (x > 0) - (x < 0); });
  };
  t["stablehlo.exponential"] = [](KernelContext& c) {
    return floatUnary<dexp>(c, [](auto x) { return std::exp(x); });
  };
  t["stablehlo.exponential_minus_one"] = [](KernelContext& c) {
    return floatUnary<dexpm1>(c, [](auto x) { return std::expm1(x); });
  };
  t["stablehlo.log"] = [](KernelContext& c) {
    return floatUnary<dlog>(c, [](auto x) { return std::log(x); });
  };
  t["stablehlo.log_plus_one"] = [](KernelContext& c) {
    return floatUnary<dlog1p>(c, [](auto x) { return std::log1p(x); });
  };
  t["stablehlo.tanh"] = [](KernelContext& c) {
    if (const Tensor* x = plainF32Operand(c)) {
      Tensor out = Tensor::uninitialized(ElementType::F32, x->shape());
      tanhF32(x->data<float>(), out.data<float>(), x->numElements());
      c.results.push_back(std::move(out));
      return true;
    }
    return floatUnary<dtanh>(c, [](auto x) { return typedTanh(x); });
  };
  t["stablehlo.logistic"] = [](KernelContext& c) {
    return floatUnary<logistic>(c, [](auto x) { return typedLogistic(x); });
  };
  t["stablehlo.sqrt"] = [](KernelContext& c) {
    return floatUnary<dsqrt>(c, [](auto x) { return std::sqrt(x); });
  };
  t["stablehlo.rsqrt"] = [](KernelContext& c) {
    return floatUnary<rsqrt>(c, [](auto x) { return typedRsqrt(x); });
  };
  t["stablehlo.cbrt"] = [](KernelContext& c) {
    return floatUnary<dcbrt>(c, [](auto x) { return std::cbrt(x); });
  };
  t["stablehlo.sine"] = [](KernelContext& c) {
    return floatUnary<dsin>(c, [](auto x) { return std::sin(x); });
  };
  t["stablehlo.cosine"] = [](KernelContext& c) {
    return floatUnary<dcos>(c, [](auto x) { return std::cos(x); });
  };
  t["stablehlo.tan"] = [](KernelContext& c) {
    return floatUnary<dtan>(c, [](auto x) { return std::tan(x); });
  };
  t["stablehlo.floor"] = [](KernelContext& c) {
    return floatUnary<dfloor>(c, [](auto x) { return std::floor(x); });
  };
  t["stablehlo.ceil"] = [](KernelContext& c) {
    return floatUnary<dceil>(c, [](auto x) { return std::ceil(x); });
  };
  t["stablehlo.round_nearest_afz"] = [](KernelContext& c) {
    return floatUnary<roundAfz>(c, [](auto x) { return std::round(x); });
  };
  t["stablehlo.round_nearest_even"] = [](KernelContext& c) {
    return floatUnary<roundEven>(c, [](auto x) { return std::nearbyint(x); });
  };
}

} // namespace

void registerElementwiseKernels(std::map<std::string, Kernel, std::less<>>& table) {
  registerArithmetic(table);
  registerBitwise(table);
  registerUnary(table);
}

} // namespace shardscope::exec::detail
