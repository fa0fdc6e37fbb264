// Transpose rules of the linear StableHLO ops. Each rule reads the cotangent of the op's result
// and adds the cotangents of its active (linear) operands; the other operands are read forward.
#include "core/autodiff/detail/engine.h"

#include "core/ir/stablehlo_attrs.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>

namespace shardscope::autodiff::detail {

using ir::Operation;
using ir::Type;
using ir::Value;

namespace {

std::vector<int64_t> ints(const Operation& op, std::string_view name) {
  return ir::stablehlo::intListAttr(op, name).value_or(std::vector<int64_t>{});
}

std::vector<int64_t> shapeOf(const Value* v) {
  auto s = v->type().shape();
  return {s.begin(), s.end()};
}

bool contains(const std::vector<int64_t>& v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The other operand of a binary op must have a forward value: while transposing, an op whose
// operands are both linear is not linear.
Value* otherPrimal(RuleContext& ctx, unsigned other) {
  Value* value = ctx.primal(other);
  if (!value)
    ctx.fail("'" + std::string(ctx.op.name()) +
             "' multiplies two linear values; it is not linear in the linear arguments");
  return value;
}

bool multiply(RuleContext& ctx) {
  for (unsigned i = 0; i < 2; ++i) {
    if (!ctx.isActive(i))
      continue;
    Value* other = otherPrimal(ctx, 1 - i);
    if (!other)
      return false;
    ctx.add(i, ctx.b.binary("multiply", ctx.ct(0), other));
  }
  return true;
}

bool divide(RuleContext& ctx) {
  Value* denominator = ctx.primal(1);
  if (ctx.isActive(1)) {
    if (ctx.engine.mode() == Mode::Transpose)
      return ctx.fail("'stablehlo.divide' divides by a linear value; it is not linear in the "
                      "linear arguments");
    // d(a/b)/db = -(a/b)/b.
    Value* y = ctx.primalResult(0);
    Value* scaled = ctx.b.binary("divide", ctx.b.binary("multiply", ctx.ct(0), y), denominator);
    ctx.add(1, ctx.b.unary("negate", scaled));
  }
  if (ctx.isActive(0))
    ctx.add(0, ctx.b.binary("divide", ctx.ct(0), denominator));
  return true;
}

bool broadcastInDim(RuleContext& ctx) {
  Value* x = ctx.op.operand(0);
  std::vector<int64_t> dims = ints(ctx.op, "broadcast_dimensions");
  std::vector<int64_t> xs = shapeOf(x), ys = shapeOf(ctx.op.result(0));
  // Sum over the result dims that are new or expanded from size 1; the kept ones come out in
  // increasing result order, so put them back in operand order and restore the size-1 dims.
  std::vector<int64_t> summed;
  std::vector<std::pair<int64_t, int64_t>> kept; // (result dim, operand dim)
  for (int64_t d = 0; d < static_cast<int64_t>(ys.size()); ++d) {
    auto it = std::find(dims.begin(), dims.end(), d);
    int64_t k = it - dims.begin();
    if (it == dims.end() || (xs[k] == 1 && ys[d] != 1))
      summed.push_back(d);
    else
      kept.emplace_back(d, k);
  }
  Value* reduced = ctx.b.reduceSum(ctx.ct(0), summed);
  std::vector<int64_t> order(kept.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int64_t a, int64_t b) { return kept[a].second < kept[b].second; });
  reduced = ctx.b.transpose(reduced, order);
  ctx.add(0, ctx.b.reshape(reduced, x->type()));
  return true;
}

bool reduce(RuleContext& ctx) {
  const Operation& op = ctx.op;
  if (op.numOperands() != 2 || op.numRegions() != 1 || op.region(0).empty())
    return ctx.fail("only single-operand sum reductions are linear");
  const ir::Block& body = op.region(0).front();
  bool isSum = body.ops().size() == 2 && body.ops().front()->is("stablehlo.add");
  if (!isSum)
    return ctx.fail("only sum reductions are linear");
  if (ctx.isActive(1))
    return ctx.fail("the init value of a reduction is differentiated; not supported");
  std::vector<int64_t> dims = ints(op, "dimensions");
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < ir::stablehlo::rankOf(op.operand(0)); ++d)
    if (!contains(dims, d))
      kept.push_back(d);
  ctx.add(0, ctx.b.broadcast(ctx.ct(0), op.operand(0)->type(), kept));
  return true;
}

bool slice(RuleContext& ctx) {
  const Operation& op = ctx.op;
  std::vector<int64_t> start = ints(op, "start_indices"), limit = ints(op, "limit_indices"),
                       strides = ints(op, "strides");
  std::vector<int64_t> xs = shapeOf(op.operand(0)), ys = shapeOf(op.result(0));
  if (strides.empty())
    strides.assign(start.size(), 1);
  std::vector<int64_t> high, interior;
  for (size_t d = 0; d < xs.size(); ++d) {
    int64_t last = ys[d] == 0 ? start[d] : start[d] + (ys[d] - 1) * strides[d] + 1;
    high.push_back(xs[d] - last);
    interior.push_back(strides[d] - 1);
  }
  Value* zero = ctx.b.splat(Type::tensor({}, op.operand(0)->type().elementType()), 0.0);
  ctx.add(0, ctx.b.pad(ctx.ct(0), zero, start, high, interior));
  return true;
}

bool pad(RuleContext& ctx) {
  const Operation& op = ctx.op;
  if (ctx.isActive(1))
    return ctx.fail("the padding value of 'stablehlo.pad' is differentiated; not supported");
  std::vector<int64_t> low = ints(op, "edge_padding_low"), high = ints(op, "edge_padding_high"),
                       interior = ints(op, "interior_padding");
  std::vector<int64_t> ys = shapeOf(op.result(0));
  std::vector<int64_t> limit, strides;
  for (size_t d = 0; d < ys.size(); ++d) {
    if (low[d] < 0 || high[d] < 0)
      return ctx.fail("negative padding is not supported");
    limit.push_back(ys[d] - high[d]);
    strides.push_back(interior[d] + 1);
  }
  ctx.add(0, ctx.b.slice(ctx.ct(0), low, limit, strides));
  return true;
}

bool concatenate(RuleContext& ctx) {
  const Operation& op = ctx.op;
  int64_t dim = ir::stablehlo::intAttr(op, "dimension").value_or(0);
  std::vector<int64_t> ys = shapeOf(op.result(0));
  int64_t offset = 0;
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    int64_t size = shapeOf(op.operand(i))[static_cast<size_t>(dim)];
    if (ctx.isActive(i)) {
      std::vector<int64_t> start(ys.size(), 0), limit = ys, strides(ys.size(), 1);
      start[static_cast<size_t>(dim)] = offset;
      limit[static_cast<size_t>(dim)] = offset + size;
      ctx.add(i, ctx.b.slice(ctx.ct(0), start, limit, strides));
    }
    offset += size;
  }
  return true;
}

bool select(RuleContext& ctx) {
  if (ctx.isActive(0))
    return ctx.fail("the predicate of 'stablehlo.select' depends on a linear value");
  Value* pred = ctx.primal(0);
  Value* zero = ctx.b.splat(ctx.ct(0)->type(), 0.0);
  if (pred->type().rank() == 0 && ctx.ct(0)->type().rank() > 0)
    pred = ctx.b.broadcast(pred, Type::tensor(ctx.ct(0)->type().shape(), ir::ElementType::I1), {});
  if (ctx.isActive(1))
    ctx.add(1, ctx.b.select(pred, ctx.ct(0), zero));
  if (ctx.isActive(2))
    ctx.add(2, ctx.b.select(pred, zero, ctx.ct(0)));
  return true;
}

bool indicesInactive(RuleContext& ctx, unsigned first) {
  for (unsigned i = first; i < ctx.op.numOperands(); ++i)
    if (ctx.isActive(i))
      return ctx.fail("the start indices of '" + std::string(ctx.op.name()) +
                      "' depend on a linear value");
  return true;
}

std::vector<Value*> primals(RuleContext& ctx, unsigned first) {
  std::vector<Value*> out;
  for (unsigned i = first; i < ctx.op.numOperands(); ++i)
    out.push_back(ctx.primal(i));
  return out;
}

bool dynamicSlice(RuleContext& ctx) {
  if (!indicesInactive(ctx, 1))
    return false;
  Value* zeros = ctx.b.splat(ctx.op.operand(0)->type(), 0.0);
  ctx.add(0, ctx.b.dynamicUpdateSlice(zeros, ctx.ct(0), primals(ctx, 1)));
  return true;
}

bool dynamicUpdateSlice(RuleContext& ctx) {
  if (!indicesInactive(ctx, 2))
    return false;
  std::vector<Value*> starts = primals(ctx, 2);
  Value* update = ctx.op.operand(1);
  if (ctx.isActive(0)) {
    Value* zeros = ctx.b.splat(update->type(), 0.0);
    ctx.add(0, ctx.b.dynamicUpdateSlice(ctx.ct(0), zeros, starts));
  }
  if (ctx.isActive(1))
    ctx.add(1, ctx.b.dynamicSlice(ctx.ct(0), starts, shapeOf(update)));
  return true;
}

// The cotangent of operand `x` (0 = lhs, 1 = rhs) of a dot_general: contract the result
// cotangent with the other operand over the other operand's free dims, batch with batch; the
// result holds x's batch, free and contracting dims in that order, so transpose it back.
bool dotGeneral(RuleContext& ctx) {
  auto numbers = ir::stablehlo::dotDimensionNumbers(ctx.op);
  if (!numbers)
    return ctx.fail("can't read the dimension numbers of 'stablehlo.dot_general'");
  for (unsigned x = 0; x < 2; ++x) {
    if (!ctx.isActive(x))
      continue;
    unsigned w = 1 - x;
    Value* other = otherPrimal(ctx, w);
    if (!other)
      return false;
    const auto& xb = x == 0 ? numbers->lhsBatching : numbers->rhsBatching;
    const auto& xc = x == 0 ? numbers->lhsContracting : numbers->rhsContracting;
    const auto& wb = w == 0 ? numbers->lhsBatching : numbers->rhsBatching;
    const auto& wc = w == 0 ? numbers->lhsContracting : numbers->rhsContracting;
    auto freeDims = [](int64_t rank, const std::vector<int64_t>& b, const std::vector<int64_t>& c) {
      std::vector<int64_t> out;
      for (int64_t d = 0; d < rank; ++d)
        if (!contains(b, d) && !contains(c, d))
          out.push_back(d);
      return out;
    };
    std::vector<int64_t> xf = freeDims(ir::stablehlo::rankOf(ctx.op.operand(x)), xb, xc);
    std::vector<int64_t> wf = freeDims(ir::stablehlo::rankOf(ctx.op.operand(w)), wb, wc);
    int64_t nb = static_cast<int64_t>(xb.size());
    int64_t lhsFree = static_cast<int64_t>(x == 0 ? xf.size() : wf.size());
    // Positions of w's free dims in the result.
    std::vector<int64_t> ctW, ctBatch;
    for (int64_t i = 0; i < nb; ++i)
      ctBatch.push_back(i);
    int64_t wStart = w == 0 ? nb : nb + lhsFree;
    for (size_t i = 0; i < wf.size(); ++i)
      ctW.push_back(wStart + static_cast<int64_t>(i));
    std::vector<int64_t> dims[4] = {ctBatch, wb, ctW, wf};
    Value* product = ctx.b.dotGeneral(ctx.ct(0), other, dims);
    // Result dims correspond to x dims: batch, free, then x's contracting dims in the order of
    // w's (sorted) contracting dims.
    std::vector<int64_t> source(xb.begin(), xb.end());
    source.insert(source.end(), xf.begin(), xf.end());
    std::vector<int64_t> sortedWc = wc;
    std::sort(sortedWc.begin(), sortedWc.end());
    for (int64_t d : sortedWc)
      source.push_back(xc[static_cast<size_t>(std::find(wc.begin(), wc.end(), d) - wc.begin())]);
    std::vector<int64_t> perm(source.size());
    for (size_t i = 0; i < source.size(); ++i)
      perm[static_cast<size_t>(source[i])] = static_cast<int64_t>(i);
    Value* result = ctx.b.transpose(product, perm);
    ctx.add(x, ctx.b.convert(result, ctx.op.operand(x)->type()));
  }
  return true;
}

} // namespace

std::optional<bool> transposeLinear(RuleContext& ctx) {
  const Operation& op = ctx.op;
  std::string_view name = op.name();
  Value* ct = ctx.ct(0);
  bool affine = (name == "stablehlo.add" || name == "stablehlo.subtract") &&
                ctx.engine.mode() == Mode::Transpose && (!ctx.isActive(0) || !ctx.isActive(1));
  if (affine)
    return ctx.fail("'" + std::string(name) + "' combines a linear value with a non-linear one; " +
                    "the function is affine, not linear, in the linear arguments");
  if (name == "stablehlo.add") {
    for (unsigned i = 0; i < 2; ++i)
      if (ctx.isActive(i))
        ctx.add(i, ct);
    return true;
  }
  if (name == "stablehlo.subtract") {
    if (ctx.isActive(0))
      ctx.add(0, ct);
    if (ctx.isActive(1))
      ctx.add(1, ctx.b.unary("negate", ct));
    return true;
  }
  if (name == "stablehlo.negate") {
    ctx.add(0, ctx.b.unary("negate", ct));
    return true;
  }
  if (name == "stablehlo.multiply")
    return multiply(ctx);
  if (name == "stablehlo.divide")
    return divide(ctx);
  if (name == "stablehlo.convert") {
    Type from = op.operand(0)->type();
    if (!ir::isFloatElement(from.elementType()))
      return ctx.fail("'stablehlo.convert' from a non-float type is not differentiable");
    ctx.add(0, ctx.b.convert(ct, from));
    return true;
  }
  if (name == "stablehlo.reshape") {
    ctx.add(0, ctx.b.reshape(ct, op.operand(0)->type()));
    return true;
  }
  if (name == "stablehlo.transpose") {
    std::vector<int64_t> perm = ints(op, "permutation"), inverse(perm.size());
    for (size_t i = 0; i < perm.size(); ++i)
      inverse[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
    ctx.add(0, ctx.b.transpose(ct, inverse));
    return true;
  }
  if (name == "stablehlo.broadcast_in_dim")
    return broadcastInDim(ctx);
  if (name == "stablehlo.reduce") {
    const ir::Block* body = op.numRegions() ? &op.region(0).front() : nullptr;
    if (!body || body->ops().size() != 2 || !body->ops().front()->is("stablehlo.add"))
      return std::nullopt; // max/min reductions are not linear (see rules_nonlinear.cpp)
    return reduce(ctx);
  }
  if (name == "stablehlo.slice")
    return slice(ctx);
  if (name == "stablehlo.pad")
    return pad(ctx);
  if (name == "stablehlo.concatenate")
    return concatenate(ctx);
  if (name == "stablehlo.select")
    return select(ctx);
  if (name == "stablehlo.dynamic_slice")
    return dynamicSlice(ctx);
  if (name == "stablehlo.dynamic_update_slice")
    return dynamicUpdateSlice(ctx);
  if (name == "stablehlo.dot_general")
    return dotGeneral(ctx);
  if (name == "sdy.sharding_constraint" || name == "sdy.reshard") {
    // Identities that pin a sharding: the cotangent gets the same sharding.
    Operation* copy = ctx.b.create(name, std::vector<Value*>{ct}, std::vector<Type>{ct->type()});
    for (const ir::NamedAttribute& attr : op.attributes()) {
      copy->setAttr(attr.name, ir::Attribute(attr.value));
      copy->setInherent(attr.name, op.isInherent(attr.name));
    }
    ctx.add(0, copy->result(0));
    return true;
  }
  if (name == "stablehlo.optimization_barrier" && op.numOperands() == op.numResults()) {
    for (unsigned i = 0; i < op.numOperands(); ++i)
      if (ctx.isActive(i) && ctx.ct(i)) {
        Axes lifted = ctx.engine.axesOf(op.result(i));
        ctx.add(i, ctx.ct(i), &lifted);
      }
    return true;
  }
  return std::nullopt;
}

} // namespace shardscope::autodiff::detail
