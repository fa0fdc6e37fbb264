// Elementwise StableHLO ops. Floats are computed in double and rounded once to the result type:
// for +, -, *, / and sqrt this gives the correctly rounded f32/f16/bf16 result; transcendental
// functions are at least as accurate as a native f32 implementation. Integers are computed on
// 64 bits (sign- or zero-extended) and truncated to the result width, which is two's complement
// wrap-around as StableHLO specifies. Complex operands go to `complexElementwise`
// (complex_kernels.cpp).
#include "core/exec/detail/kernel.h"

#include <bit>
#include <cmath>
#include <limits>

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

void registerArithmetic(std::map<std::string, Kernel, std::less<>>& t) {
  // On i1, StableHLO's reference adds as logical or (true + true is true).
  t["stablehlo.add"] = [](KernelContext& c) {
    bool isBool = !c.operands.empty() && c.operands[0].elementType() == ElementType::I1;
    return binary(
        c, [](double a, double b) { return a + b; },
        [isBool](int64_t a, int64_t b, bool) { return isBool ? (a | b) : wrapAdd(a, b); });
  };
  t["stablehlo.subtract"] = [](KernelContext& c) {
    return binary(
        c, [](double a, double b) { return a - b; },
        [](int64_t a, int64_t b, bool) { return wrapSub(a, b); });
  };
  t["stablehlo.multiply"] = [](KernelContext& c) {
    return binary(
        c, [](double a, double b) { return a * b; },
        [](int64_t a, int64_t b, bool) { return wrapMul(a, b); });
  };
  t["stablehlo.divide"] = [](KernelContext& c) {
    return binary(
        c, [](double a, double b) { return a / b; }, intDiv);
  };
  t["stablehlo.remainder"] = [](KernelContext& c) {
    return binary(
        c, [](double a, double b) { return std::fmod(a, b); }, intRem);
  };
  t["stablehlo.maximum"] = [](KernelContext& c) {
    return binary(c, fmaxNan, [](int64_t a, int64_t b, bool u) { return less(a, b, u) ? b : a; });
  };
  t["stablehlo.minimum"] = [](KernelContext& c) {
    return binary(c, fminNan, [](int64_t a, int64_t b, bool u) { return less(a, b, u) ? a : b; });
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
  t["stablehlo.and"] = [](KernelContext& c) {
    if (c.operands.empty() || isFloat(c.operands[0]))
      return c.fail("expected integer or boolean operands");
    return binary(
        c, [](double a, double) { return a; }, [](int64_t a, int64_t b, bool) { return a & b; });
  };
  t["stablehlo.or"] = [](KernelContext& c) {
    if (c.operands.empty() || isFloat(c.operands[0]))
      return c.fail("expected integer or boolean operands");
    return binary(
        c, [](double a, double) { return a; }, [](int64_t a, int64_t b, bool) { return a | b; });
  };
  t["stablehlo.xor"] = [](KernelContext& c) {
    if (c.operands.empty() || isFloat(c.operands[0]))
      return c.fail("expected integer or boolean operands");
    return binary(
        c, [](double a, double) { return a; }, [](int64_t a, int64_t b, bool) { return a ^ b; });
  };
  t["stablehlo.not"] = [](KernelContext& c) {
    if (c.operands.empty() || isFloat(c.operands[0]))
      return c.fail("expected integer or boolean operand");
    return unary(
        c, [](double a) { return a; }, [](int64_t a, bool) { return ~a; });
  };
}

template <double (*F)(double)> Kernel floatOnly() {
  return [](KernelContext& c) {
    if (isComplexCall(c))
      return complexElementwise(c);
    if (c.operands.empty() || !isFloat(c.operands[0]))
      return c.fail("expected a floating-point operand");
    return unary(c, F, noInt);
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

void registerUnary(std::map<std::string, Kernel, std::less<>>& t) {
  t["stablehlo.negate"] = [](KernelContext& c) {
    return unary(
        c, [](double x) { return -x; }, [](int64_t x, bool) { return wrapSub(0, x); });
  };
  t["stablehlo.abs"] = [](KernelContext& c) {
    return unary(
        c, [](double x) { return std::fabs(x); },
        [](int64_t x, bool u) { return u || x >= 0 ? x : wrapSub(0, x); });
  };
  t["stablehlo.sign"] = [](KernelContext& c) {
    return unary(c, fsign,
                 [](int64_t x, bool u) -> int64_t { return u ? (x != 0) : (x > 0) - (x < 0); });
  };
  t["stablehlo.exponential"] = floatOnly<dexp>();
  t["stablehlo.exponential_minus_one"] = floatOnly<dexpm1>();
  t["stablehlo.log"] = floatOnly<dlog>();
  t["stablehlo.log_plus_one"] = floatOnly<dlog1p>();
  t["stablehlo.tanh"] = floatOnly<dtanh>();
  t["stablehlo.logistic"] = floatOnly<logistic>();
  t["stablehlo.sqrt"] = floatOnly<dsqrt>();
  t["stablehlo.rsqrt"] = floatOnly<rsqrt>();
  t["stablehlo.cbrt"] = floatOnly<dcbrt>();
  t["stablehlo.sine"] = floatOnly<dsin>();
  t["stablehlo.cosine"] = floatOnly<dcos>();
  t["stablehlo.tan"] = floatOnly<dtan>();
  t["stablehlo.floor"] = floatOnly<dfloor>();
  t["stablehlo.ceil"] = floatOnly<dceil>();
  t["stablehlo.round_nearest_afz"] = floatOnly<roundAfz>();
  t["stablehlo.round_nearest_even"] = floatOnly<roundEven>();
}

} // namespace

void registerElementwiseKernels(std::map<std::string, Kernel, std::less<>>& table) {
  registerArithmetic(table);
  registerBitwise(table);
  registerUnary(table);
}

} // namespace shardscope::exec::detail
