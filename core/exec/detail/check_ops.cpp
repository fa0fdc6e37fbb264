#include "core/exec/detail/check_ops.h"

#include "core/ir/stablehlo_attrs.h"

#include <cmath>
#include <complex>

namespace shardscope::exec::detail {

namespace {

// StableHLO's check dialect (CheckOps.td): `expect_almost_eq` defaults to an absolute tolerance
// of 1e-4; `expect_close` accepts `min_ulp_difference` (default 0) to `max_ulp_difference`
// (default 1) units in the last place. Written as custom calls (stablehlo-translate's fallback),
// `@check.expect_almost_eq` uses 1e-3, `@check.expect_close` 0 to 3 ulps, and `@check.eq` is
// exact for integers and `expect_almost_eq` (1e-4) otherwise.
constexpr double kDefaultTolerance = 0.0001;
constexpr double kCustomCallTolerance = 0.001;
constexpr int64_t kDefaultMaxUlps = 1;
constexpr int64_t kCustomCallMaxUlps = 3;

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
struct Bounds {
  double tolerance = kDefaultTolerance;
  int64_t minUlps = 0;
  int64_t maxUlps = kDefaultMaxUlps;
};

bool floatMatches(double a, double e, ir::ElementType type, Mode mode, const Bounds& b) {
  if (std::isnan(a) || std::isnan(e))
    return std::isnan(a) && std::isnan(e) && (mode != Mode::Ulps || b.minUlps == 0);
  switch (mode) {
  case Mode::Exact:
    return a == e;
  case Mode::Tolerance:
    return a == e || std::fabs(a - e) <= b.tolerance;
  case Mode::Ulps: {
    // The reference's ULP difference: 0 for equal bits, else the distance for finite values
    // and "infinitely far" when one side is not finite.
    int64_t d = std::isfinite(a) && std::isfinite(e) ? ulpDistance(a, e, type)
                : a == e                              ? 0
                                                      : INT64_MAX;
    return d >= b.minUlps && d <= b.maxUlps;
  }
  }
  return false;
}

// Element `i` of `actual` matches `expected` under `mode`; complex elements part by part.
bool matches(const Tensor& actual, const Tensor& expected, int64_t i, Mode mode, const Bounds& b) {
  ir::ElementType type = actual.elementType();
  if (ir::isComplexElement(type)) {
    std::complex<double> a = actual.complexAt(i), e = expected.complexAt(i);
    ir::ElementType part = complexPartType(type);
    return floatMatches(a.real(), e.real(), part, mode, b) &&
           floatMatches(a.imag(), e.imag(), part, mode, b);
  }
  if (!ir::isFloatElement(type))
    return actual.intAt(i) == expected.intAt(i);
  return floatMatches(actual.floatAt(i), expected.floatAt(i), type, mode, b);
}

} // namespace

bool isCheckOp(const ir::Operation& op) {
  return op.name().starts_with("check.") ||
         (op.is("stablehlo.custom_call") && checkName(op).starts_with("check."));
}

namespace {

// The expected tensor of `check.expect_serialized_eq`: what its probe recorded.
std::optional<Tensor> serializedExpected(KernelContext& ctx, const InterpreterHooks& hooks) {
  const auto* probe = ctx.op.attr("probe_id").as<ir::StringAttr>();
  if (!probe) {
    ctx.fail("expected a string 'probe_id' attribute");
    return std::nullopt;
  }
  if (!hooks.loadProbe) {
    ctx.fail("'check.expect_serialized_eq' needs recorded probes (--probe-output-dir)");
    return std::nullopt;
  }
  uint32_t iteration =
      static_cast<uint32_t>(ir::stablehlo::intAttr(ctx.op, "iteration").value_or(0));
  std::string recordedType, error;
  std::optional<Tensor> t =
      hooks.loadProbe(probe->value, iteration, ctx.operands[0].type(), recordedType, error);
  if (!t) {
    ctx.fail("failed to find serialized data for probe " + probe->value +
             (error.empty() ? "" : ": " + error));
    return std::nullopt;
  }
  if (recordedType != ctx.operands[0].type().str()) {
    ctx.fail("serialized types don't match: " + ctx.operands[0].type().str() + " (actual) vs " +
             recordedType + " (expected) for probe " + probe->value);
    return std::nullopt;
  }
  return t;
}

} // namespace

bool runCheckOp(KernelContext& ctx, bool& failedCheck, const InterpreterHooks& hooks) {
  std::string name = checkName(ctx.op);
  bool isCustomCall = ctx.op.is("stablehlo.custom_call");
  bool isConst = name.ends_with("_const");
  bool isSerialized = name == "check.expect_serialized_eq";
  Mode mode = name.starts_with("check.expect_almost_eq") ? Mode::Tolerance
              : name == "check.expect_close"             ? Mode::Ulps
                                                         : Mode::Exact;
  if (!name.starts_with("check.expect_eq") && mode == Mode::Exact && !isSerialized &&
      !(isCustomCall && name == "check.eq"))
    return ctx.fail("unsupported check op '" + name + "'");
  if (!ctx.expectOperands(isConst || isSerialized ? 1 : 2))
    return false;
  std::optional<Tensor> constant;
  if (isConst) {
    const auto* dense = ctx.op.attr("value").as<ir::DenseElementsAttr>();
    constant = dense ? Tensor::fromDense(*dense) : std::nullopt;
    if (!constant)
      return ctx.fail("expected a dense 'value' attribute of a supported type");
  } else if (isSerialized) {
    constant = serializedExpected(ctx, hooks);
    if (!constant)
      return false;
  }
  const Tensor& actual = ctx.operands[0];
  const Tensor& expected = constant ? *constant : ctx.operands[1];
  if (actual.type() != expected.type())
    return ctx.fail("type mismatch: " + actual.type().str() + " (actual) vs " +
                    expected.type().str() + " (expected)");
  Bounds bounds;
  if (isCustomCall) {
    bounds.tolerance = name == "check.eq" ? kDefaultTolerance : kCustomCallTolerance;
    bounds.maxUlps = kCustomCallMaxUlps;
    if (name == "check.eq" && !ir::isIntegerElement(actual.elementType()))
      mode = Mode::Tolerance;
  }
  if (const auto* f = ctx.op.attr("tolerance").as<ir::FloatAttr>())
    bounds.tolerance = f->value;
  bounds.maxUlps = ir::stablehlo::intAttr(ctx.op, "max_ulp_difference").value_or(bounds.maxUlps);
  bounds.minUlps = ir::stablehlo::intAttr(ctx.op, "min_ulp_difference").value_or(0);
  int64_t mismatches = 0, first = -1;
  for (int64_t i = 0; i < actual.numElements(); ++i)
    if (!matches(actual, expected, i, mode, bounds) && mismatches++ == 0)
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

bool isInterpreterIoOp(const ir::Operation& op) {
  return op.is("interpreter.print") || op.is("interpreter.probe");
}

bool runInterpreterIoOp(KernelContext& ctx, const InterpreterHooks& hooks) {
  if (!ctx.expectOperands(1))
    return false;
  if (ctx.op.is("interpreter.print")) {
    if (hooks.print)
      hooks.print(ctx.op, ctx.operands[0]);
    return true;
  }
  const auto* probe = ctx.op.attr("probe_id").as<ir::StringAttr>();
  if (!probe)
    return ctx.fail("expected a string 'probe_id' attribute");
  if (!hooks.probe)
    return ctx.fail("'interpreter.probe' needs a probe output directory (--probe-output-dir)");
  std::string error;
  if (!hooks.probe(probe->value, ctx.operands[0], error))
    return ctx.fail("probe " + probe->value + ": " + error);
  ctx.results.push_back(ctx.operands[0]);
  return true;
}

} // namespace shardscope::exec::detail
