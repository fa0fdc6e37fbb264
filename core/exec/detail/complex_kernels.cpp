// Complex numbers: complex, real and imag, and the complex forms of the elementwise ops (called
// by the elementwise kernels when an operand is complex). Values are computed in
// `std::complex<double>` and each part is rounded to the part type once, as real floats are
// computed in double and rounded once.
#include "core/exec/detail/kernel.h"

#include <cmath>
#include <complex>
#include <limits>

namespace shardscope::exec::detail {

namespace {

using ir::ElementType;
using Complex = std::complex<double>;
using UnaryFn = Complex (*)(Complex);
using BinaryFn = Complex (*)(Complex, Complex);

bool isComplex(const Tensor& t) { return ir::isComplexElement(t.elementType()); }

// The tensor type of the parts of complex tensor `t` (`tensor<2xf32>` for
// `tensor<2xcomplex<f32>>`).
ir::Type partTypeOf(const Tensor& t) {
  return ir::Type::tensor(t.shape(), complexPartType(t.elementType()));
}

// `stablehlo.complex`: real and imaginary parts of the same f32/f64 type make one complex tensor.
bool makeComplex(KernelContext& ctx) {
  if (!ctx.expectOperands(2))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  const Tensor& re = ctx.operands[0];
  const Tensor& im = ctx.operands[1];
  std::optional<ElementType> complexType = complexTypeOf(re.elementType());
  if (re.type() != im.type() || !complexType)
    return ctx.fail("expected two f32 or f64 operands of the same type, got " + re.type().str() +
                    " and " + im.type().str());
  if (out->elementType() != *complexType || out->shape() != re.shape())
    return ctx.fail("result " + out->type().str() + " does not match the operands " +
                    re.type().str());
  for (int64_t i = 0; i < out->numElements(); ++i)
    out->setComplex(i, {re.floatAt(i), im.floatAt(i)});
  ctx.results.push_back(std::move(*out));
  return true;
}

// real(x) / imag(x): the part of a complex tensor; of a real tensor, x itself and zeros (the spec
// allows float operands).
template <bool isReal> bool realOrImag(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  const Tensor& x = ctx.operands[0];
  if (!ir::isFloatElement(x.elementType()) && !isComplex(x))
    return ctx.fail("expected a floating-point or complex operand, got " + x.type().str());
  ir::Type expected = isComplex(x) ? partTypeOf(x) : x.type();
  if (out->type() != expected)
    return ctx.fail("result " + out->type().str() + " does not match the operand " +
                    x.type().str() + "; expected " + expected.str());
  if (!isComplex(x)) {
    ctx.results.push_back(isReal ? x : *out);
    return true;
  }
  for (int64_t i = 0; i < out->numElements(); ++i) {
    Complex c = x.complexAt(i);
    out->setFloat(i, isReal ? c.real() : c.imag());
  }
  ctx.results.push_back(std::move(*out));
  return true;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The spec's complex sign: NaN parts give (NaN, NaN), zero gives zero, else x / |x|.
Complex csign(Complex x) {
  if (std::isnan(x.real()) || std::isnan(x.imag()))
    return {kNaN, kNaN};
  if (x == Complex(0, 0))
    return x;
  return x / std::abs(x);
}

// exp(z) - 1 without the cancellation of `std::exp(z) - 1` for small z:
// e^x cos y - 1 = expm1(x) cos y - 2 sin^2(y / 2).
Complex cexpm1(Complex z) {
  double x = z.real(), y = z.imag();
  double s = std::sin(y / 2);
  return {std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y)};
}

// log(1 + z) with the real part from log1p: |1 + z|^2 = 1 + (2x + x^2 + y^2).
Complex clog1p(Complex z) {
  double x = z.real(), y = z.imag();
  if (std::fabs(x) < 0.5 && std::fabs(y) < 0.5)
    return {0.5 * std::log1p(x * (2 + x) + y * y), std::atan2(y, 1 + x)};
  return std::log(1.0 + z);
}

Complex cneg(Complex z) { return -z; }
Complex cexp(Complex z) { return std::exp(z); }
Complex clog(Complex z) { return std::log(z); }
Complex csqrt(Complex z) { return std::sqrt(z); }
Complex crsqrt(Complex z) { return 1.0 / std::sqrt(z); }
Complex csin(Complex z) { return std::sin(z); }
Complex ccos(Complex z) { return std::cos(z); }
Complex ctan(Complex z) { return std::tan(z); }
Complex ctanh(Complex z) { return std::tanh(z); }
Complex clogistic(Complex z) { return 1.0 / (1.0 + std::exp(-z)); }

Complex cadd(Complex a, Complex b) { return a + b; }
Complex csub(Complex a, Complex b) { return a - b; }
Complex cmul(Complex a, Complex b) { return a * b; }
Complex cdiv(Complex a, Complex b) { return a / b; }
Complex cpow(Complex a, Complex b) { return std::pow(a, b); }
// maximum / minimum order complex numbers lexicographically, real part first (StableHLO's
// reference); equal values give the second operand.
Complex cmax(Complex a, Complex b) {
  return (a.real() == b.real() ? a.imag() > b.imag() : a.real() > b.real()) ? a : b;
}
Complex cmin(Complex a, Complex b) {
  return (a.real() == b.real() ? a.imag() < b.imag() : a.real() < b.real()) ? a : b;
}
// atan2(y, x) = -i * log((x + i*y) / sqrt(x^2 + y^2)), the reference's complex definition.
Complex catan2(Complex y, Complex x) {
  const Complex i(0.0, 1.0);
  return -i * std::log((x + i * y) / std::sqrt(x * x + y * y));
}
// The principal cube root: |z|^(1/3) at a third of the argument.
Complex ccbrt(Complex z) {
  double theta = std::atan2(z.imag(), z.real()) / 3.0;
  return std::pow(z.real() * z.real() + z.imag() * z.imag(), 1.0 / 6.0) *
         Complex(std::cos(theta), std::sin(theta));
}

UnaryFn unaryFn(std::string_view name) {
  static const std::pair<std::string_view, UnaryFn> kOps[] = {
      {"stablehlo.negate", cneg},       {"stablehlo.sign", csign},
      {"stablehlo.exponential", cexp},  {"stablehlo.exponential_minus_one", cexpm1},
      {"stablehlo.log", clog},          {"stablehlo.log_plus_one", clog1p},
      {"stablehlo.sqrt", csqrt},        {"stablehlo.rsqrt", crsqrt},
      {"stablehlo.sine", csin},         {"stablehlo.cosine", ccos},
      {"stablehlo.tan", ctan},          {"stablehlo.tanh", ctanh},
      {"stablehlo.logistic", clogistic}, {"stablehlo.cbrt", ccbrt}};
  for (const auto& [opName, fn] : kOps)
    if (name == opName)
      return fn;
  return nullptr;
}

BinaryFn binaryFn(std::string_view name) {
  static const std::pair<std::string_view, BinaryFn> kOps[] = {{"stablehlo.add", cadd},
                                                               {"stablehlo.subtract", csub},
                                                               {"stablehlo.multiply", cmul},
                                                               {"stablehlo.divide", cdiv},
                                                               {"stablehlo.power", cpow},
                                                               {"stablehlo.maximum", cmax},
                                                               {"stablehlo.minimum", cmin},
                                                               {"stablehlo.atan2", catan2}};
  for (const auto& [opName, fn] : kOps)
    if (name == opName)
      return fn;
  return nullptr;
}

// Every operand must have the result's type (abs: the result is the operand's part type).
bool checkTypes(KernelContext& ctx, const Tensor& out, bool isAbs) {
  for (const Tensor& t : ctx.operands) {
    if (!isComplex(t))
      return ctx.fail("expected complex operands of one type, got " + t.type().str());
    ir::Type expected = isAbs ? partTypeOf(t) : t.type();
    if (out.type() != expected)
      return ctx.fail("result " + out.type().str() + " does not match the operand " +
                      t.type().str() + "; expected " + expected.str());
  }
  return true;
}

} // namespace

bool complexElementwise(KernelContext& ctx) {
  std::string_view name = ctx.op.name();
  bool isAbs = name == "stablehlo.abs";
  UnaryFn unary = unaryFn(name);
  BinaryFn binary = binaryFn(name);
  if (!isAbs && !unary && !binary)
    return ctx.fail("complex operands are not supported by this op (it has no complex form in "
                    "the interpreter)");
  if (!ctx.expectOperands(binary ? 2 : 1))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out || !checkTypes(ctx, *out, isAbs))
    return false;
  const Tensor& a = ctx.operands[0];
  for (int64_t i = 0; i < out->numElements(); ++i) {
    if (isAbs)
      out->setFloat(i, std::abs(a.complexAt(i)));
    else if (unary)
      out->setComplex(i, unary(a.complexAt(i)));
    else
      out->setComplex(i, binary(a.complexAt(i), ctx.operands[1].complexAt(i)));
  }
  ctx.results.push_back(std::move(*out));
  return true;
}

void registerComplexKernels(std::map<std::string, Kernel, std::less<>>& t) {
  t["stablehlo.complex"] = makeComplex;
  t["stablehlo.real"] = realOrImag<true>;
  t["stablehlo.imag"] = realOrImag<false>;
}

} // namespace shardscope::exec::detail
