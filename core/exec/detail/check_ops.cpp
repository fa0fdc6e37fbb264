#include "core/exec/detail/check_ops.h"

#include "core/ir/stablehlo_attrs.h"

#include <cmath>
#include <complex>

namespace shardscope::exec::detail {

namespace {

// StableHLO's check dialect: `expect_almost_eq` defaults to an absolute tolerance of 1e-4;
// `expect_close` accepts up to `max_ulp_difference` (default 3) units in the last place.
constexpr double kDefaultTolerance = 0.0001;
constexpr int64_t kDefaultMaxUlps = 3;

std::string checkName(const ir::Operation& op) {
  if (op.is("stablehlo.custom_call"))
    return ir::stablehlo::stringAttr(op, "call_target_name");
  return std::string(op.name());
}

std::string indexStr(std::span<const int64_t> shape, int64_t linear) {
  std::vector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = shape[d] ? linear % shape[d] : 0;
    linear = shape[d] ? linear / shape[d] : 0;
  }
  std::string s = "[";
  for (size_t i = 0; i < index.size(); ++i)
    s += (i ? ", " : "") + std::to_string(index[i]);
  return s + "]";
}

std::string elementStr(const Tensor& t, int64_t i) {
  if (ir::isComplexElement(t.elementType())) {
    std::complex<double> c = t.complexAt(i);
    char buf[96];
    std::snprintf(buf, sizeof buf, "(%.9g, %.9g)", c.real(), c.imag());
    return buf;
  }
  if (ir::isFloatElement(t.elementType())) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", t.floatAt(i));
    return buf;
  }
  bool isUnsigned = t.elementType() == ir::ElementType::UI64;
  return isUnsigned ? std::to_string(static_cast<uint64_t>(t.intAt(i))) : std::to_string(t.intAt(i));
}

enum class Mode { Exact, Tolerance, Ulps };

// Float values `a` and `e` of type `type` match under `mode`.
bool floatMatches(double a, double e, ir::ElementType type, Mode mode, double tolerance,
                  int64_t maxUlps) {
  if (std::isnan(a) || std::isnan(e))
    return std::isnan(a) && std::isnan(e);
  switch (mode) {
  case Mode::Exact:
    return a == e;
  case Mode::Tolerance:
    return a == e || std::fabs(a - e) <= tolerance;
  case Mode::Ulps:
    return ulpDistance(a, e, type) <= maxUlps;
  }
  return false;
}

// Element `i` of `actual` matches `expected` under `mode`; complex elements part by part.
bool matches(const Tensor& actual, const Tensor& expected, int64_t i, Mode mode, double tolerance,
             int64_t maxUlps) {
  ir::ElementType type = actual.elementType();
  if (ir::isComplexElement(type)) {
    std::complex<double> a = actual.complexAt(i), e = expected.complexAt(i);
    ir::ElementType part = complexPartType(type);
    return floatMatches(a.real(), e.real(), part, mode, tolerance, maxUlps) &&
           floatMatches(a.imag(), e.imag(), part, mode, tolerance, maxUlps);
  }
  if (!ir::isFloatElement(type))
    return actual.intAt(i) == expected.intAt(i);
  return floatMatches(actual.floatAt(i), expected.floatAt(i), type, mode, tolerance, maxUlps);
}

} // namespace

bool isCheckOp(const ir::Operation& op) {
  return op.name().starts_with("check.") ||
         (op.is("stablehlo.custom_call") && checkName(op).starts_with("check."));
}

bool runCheckOp(KernelContext& ctx, bool& failedCheck) {
  std::string name = checkName(ctx.op);
  bool isConst = name.ends_with("_const");
  Mode mode = name.starts_with("check.expect_almost_eq") ? Mode::Tolerance
              : name == "check.expect_close"             ? Mode::Ulps
                                                         : Mode::Exact;
  if (!name.starts_with("check.expect_eq") && mode == Mode::Exact)
    return ctx.fail("unsupported check op '" + name + "'");
  if (!ctx.expectOperands(isConst ? 1 : 2))
    return false;
  std::optional<Tensor> constant;
  if (isConst) {
    const auto* dense = ctx.op.attr("value").as<ir::DenseElementsAttr>();
    constant = dense ? Tensor::fromDense(*dense) : std::nullopt;
    if (!constant)
      return ctx.fail("expected a dense 'value' attribute of a supported type");
  }
  const Tensor& actual = ctx.operands[0];
  const Tensor& expected = isConst ? *constant : ctx.operands[1];
  if (actual.type() != expected.type())
    return ctx.fail("type mismatch: " + actual.type().str() + " (actual) vs " +
                    expected.type().str() + " (expected)");
  double tolerance = kDefaultTolerance;
  if (const auto* f = ctx.op.attr("tolerance").as<ir::FloatAttr>())
    tolerance = f->value;
  int64_t maxUlps = ir::stablehlo::intAttr(ctx.op, "max_ulp_difference").value_or(kDefaultMaxUlps);
  int64_t mismatches = 0, first = -1;
  for (int64_t i = 0; i < actual.numElements(); ++i)
    if (!matches(actual, expected, i, mode, tolerance, maxUlps) && mismatches++ == 0)
      first = i;
  if (mismatches == 0)
    return true;
  failedCheck = true;
  ctx.sink.error(ctx.op.loc(),
                 "'" + name + "' failed: element " + indexStr(actual.shape(), first) + " is " +
                     elementStr(actual, first) + ", expected " + elementStr(expected, first) +
                     (mismatches > 1 ? " (" + std::to_string(mismatches) + " of " +
                                           std::to_string(actual.numElements()) +
                                           " elements differ)"
                                     : ""));
  return true;
}

} // namespace shardscope::exec::detail
