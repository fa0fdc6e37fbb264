// Derivative rules of the non-linear elementwise ops and of max reductions, for `grad`: each is
// the transpose of the op's linearization at the forward values, so it reads the forward
// operand `x` and result `y` and scales the result cotangent.
#include "core/autodiff/detail/engine.h"

#include "core/ir/stablehlo_attrs.h"

#include <algorithm>

namespace shardscope::autodiff::detail {

using ir::Operation;
using ir::Type;
using ir::Value;

namespace {

Value* constantLike(OpBuilder& b, Value* like, double value) {
  return b.splat(like->type(), value);
}

// ct * (a > b) + ct/2 * (a == b): ties share the cotangent, as JAX does.
Value* pickGreater(OpBuilder& b, Value* ct, Value* a, Value* other, std::string_view direction) {
  Value* zero = constantLike(b, ct, 0.0);
  Value* half = b.binary("multiply", ct, constantLike(b, ct, 0.5));
  Value* tie = b.select(b.compare("EQ", a, other), half, zero);
  return b.select(b.compare(direction, a, other), ct, tie);
}

bool extremum(RuleContext& ctx, std::string_view direction) {
  for (unsigned i = 0; i < 2; ++i)
    if (ctx.isActive(i))
      ctx.add(i, pickGreater(ctx.b, ctx.ct(0), ctx.primal(i), ctx.primal(1 - i), direction));
  return true;
}

bool power(RuleContext& ctx) {
  OpBuilder& b = ctx.b;
  Value* x = ctx.primal(0);
  Value* p = ctx.primal(1);
  Value* y = ctx.primalResult(0);
  if (ctx.isActive(0)) {
    // d(x^p)/dx = p * x^(p-1).
    Value* pm1 = b.binary("subtract", p, constantLike(b, p, 1.0));
    Value* slope = b.binary("multiply", p, b.binary("power", x, pm1));
    ctx.add(0, b.binary("multiply", ctx.ct(0), slope));
  }
  if (ctx.isActive(1)) {
    // d(x^p)/dp = x^p * log(x).
    Value* slope = b.binary("multiply", y, b.unary("log", x));
    ctx.add(1, b.binary("multiply", ctx.ct(0), slope));
  }
  return true;
}

// reduce max/min over `dims`: the cotangent goes to the elements equal to the result.
bool reduceExtremum(RuleContext& ctx) {
  const Operation& op = ctx.op;
  if (op.numOperands() != 2 || ctx.isActive(1))
    return ctx.fail("only single-operand max/min reductions with a constant init are supported");
  auto dims = ir::stablehlo::intListAttr(op, "dimensions").value_or(std::vector<int64_t>{});
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < ir::stablehlo::rankOf(op.operand(0)); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end())
      kept.push_back(d);
  OpBuilder& b = ctx.b;
  Type type = op.operand(0)->type();
  Value* y = b.broadcast(ctx.primalResult(0), type, kept);
  Value* ct = b.broadcast(ctx.ct(0), type, kept);
  Value* mask = b.compare("EQ", ctx.primal(0), y);
  Value* zero = b.splat(type, 0.0);
  Value* one = b.splat(type, 1.0);
  // Ties share the cotangent equally: divide by the number of maximal elements.
  Value* count = b.broadcast(b.reduceSum(b.select(mask, one, zero), dims), type, kept);
  ctx.add(0, b.select(mask, b.binary("divide", ct, count), zero));
  return true;
}

} // namespace

std::optional<bool> differentiateNonlinear(RuleContext& ctx) {
  const Operation& op = ctx.op;
  std::string_view name = op.name();
  OpBuilder& b = ctx.b;
  Value* ct = ctx.ct(0);
  auto scale = [&](Value* slope) {
    ctx.add(0, b.binary("multiply", ct, slope));
    return true;
  };
  if (name == "stablehlo.reduce") {
    const ir::Block& body = op.region(0).front();
    if (body.ops().size() == 2 && (body.ops().front()->is("stablehlo.maximum") ||
                                   body.ops().front()->is("stablehlo.minimum")))
      return ctx.engine.mode() == Mode::Grad ? std::optional<bool>(reduceExtremum(ctx))
                                             : std::optional<bool>(false);
    return std::nullopt;
  }
  bool known =
      name == "stablehlo.exponential" || name == "stablehlo.log" || name == "stablehlo.tanh" ||
      name == "stablehlo.logistic" || name == "stablehlo.sqrt" || name == "stablehlo.rsqrt" ||
      name == "stablehlo.maximum" || name == "stablehlo.minimum" || name == "stablehlo.power" ||
      name == "stablehlo.sine" || name == "stablehlo.cosine" || name == "stablehlo.abs";
  if (!known)
    return std::nullopt;
  if (ctx.engine.mode() != Mode::Grad)
    return false;
  Value* x = ctx.primal(0);
  Value* y = ctx.primalResult(0);
  if (name == "stablehlo.exponential")
    return scale(y);
  if (name == "stablehlo.log")
    return ctx.add(0, b.binary("divide", ct, x)), true;
  if (name == "stablehlo.tanh")
    return scale(b.binary("subtract", constantLike(b, y, 1.0), b.binary("multiply", y, y)));
  if (name == "stablehlo.logistic")
    return scale(b.binary("multiply", y, b.binary("subtract", constantLike(b, y, 1.0), y)));
  if (name == "stablehlo.sqrt")
    return ctx.add(0, b.binary("divide", ct, b.binary("multiply", y, constantLike(b, y, 2.0)))),
           true;
  if (name == "stablehlo.rsqrt")
    return scale(b.binary("divide", b.binary("multiply", y, constantLike(b, y, -0.5)), x));
  if (name == "stablehlo.maximum")
    return extremum(ctx, "GT");
  if (name == "stablehlo.minimum")
    return extremum(ctx, "LT");
  if (name == "stablehlo.power")
    return power(ctx);
  if (name == "stablehlo.sine")
    return scale(b.unary("cosine", x));
  if (name == "stablehlo.cosine")
    return scale(b.unary("negate", b.unary("sine", x)));
  // abs
  return scale(b.unary("sign", x));
}

} // namespace shardscope::autodiff::detail
