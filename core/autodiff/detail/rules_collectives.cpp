// Transposes of the collectives inside manual computations and of the manual computations
// themselves. With the efficient rules the variance type decides: psum (invariant result)
// transposes to a pbroadcast, which is free; all_gather (varying result) to psum_scatter;
// all_gather_invariant to pscatter, a local dynamic slice at the device's position along the
// axes. The naive rules are the ones JAX used before the design: psum to psum, all_gather to
// psum_scatter whatever the variance.
#include "core/autodiff/detail/engine.h"

#include "core/analysis/manual_computation.h"
#include "core/ir/stablehlo_attrs.h"

#include <algorithm>

namespace shardscope::autodiff::detail {

using ir::Attribute;
using ir::Operation;
using ir::Type;
using ir::Value;

namespace {

const analysis::CollectiveUse* useOf(const Engine& engine, const Operation& op) {
  for (const analysis::CollectiveUse& use : engine.variance().collectives())
    if (use.op == &op)
      return &use;
  return nullptr;
}

// The attributes a new collective over the same devices as `op` gets: its replica groups, a
// fresh channel handle, and `use_global_device_ids` when `op` has it.
std::vector<ir::NamedAttribute> sameGroups(RuleContext& ctx) {
  std::vector<ir::NamedAttribute> attrs;
  if (Attribute groups = ctx.op.attr("replica_groups"))
    attrs.push_back(named("replica_groups", groups));
  if (ctx.op.hasAttr("channel_handle"))
    attrs.push_back(named("channel_handle", ctx.engine.channelHandle()));
  if (ctx.op.hasAttr("use_global_device_ids"))
    attrs.push_back(named("use_global_device_ids", Attribute::unit()));
  return attrs;
}

Value* reduceScatter(RuleContext& ctx, Value* ct, int64_t dim, Type type) {
  std::vector<ir::NamedAttribute> attrs = sameGroups(ctx);
  attrs.push_back(named("scatter_dimension", i64(dim)));
  std::vector<Type> types{type};
  Operation* op =
      ctx.b.create("stablehlo.reduce_scatter", std::vector<Value*>{ct}, types, std::move(attrs));
  OpBuilder::addSumRegion(*op, type.elementType());
  return op->result(0);
}

Value* allGather(RuleContext& ctx, Value* ct, int64_t dim, Type type) {
  std::vector<ir::NamedAttribute> attrs = sameGroups(ctx);
  attrs.push_back(named("all_gather_dim", i64(dim)));
  return ctx.b.create1("stablehlo.all_gather", {ct}, type, std::move(attrs));
}

// pscatter: this device's block of `ct` along `dim`, at its position among the devices of the
// collective's axes (read from a table indexed by partition id).
Value* pscatter(RuleContext& ctx, Value* ct, int64_t dim, Type type, const Axes& axes) {
  OpBuilder& b = ctx.b;
  std::vector<int64_t> position;
  ctx.engine.groupsOf(ctx.scope, axes, &position);
  Type i64Scalar = Type::tensor({}, ir::ElementType::I64);
  Value* id = b.convert(
      b.create1("stablehlo.partition_id", {}, Type::tensor({}, ir::ElementType::UI32)), i64Scalar);
  std::vector<int64_t> tableShape{static_cast<int64_t>(position.size())};
  Value* table = b.intConstant(Type::tensor(tableShape, ir::ElementType::I64), position);
  std::vector<Value*> idStart{id};
  Value* entry = b.reshape(b.dynamicSlice(table, idStart, {1}), i64Scalar);
  int64_t chunk = type.shape()[static_cast<size_t>(dim)];
  Value* start = chunk == 1
                     ? entry
                     : b.binary("multiply", entry, b.splat(i64Scalar, static_cast<double>(chunk)));
  Value* zero = b.splat(i64Scalar, 0.0);
  std::vector<Value*> starts(static_cast<size_t>(type.rank()), zero);
  starts[static_cast<size_t>(dim)] = start;
  auto shape = type.shape();
  Value* block = b.dynamicSlice(ct, starts, {shape.begin(), shape.end()});
  // Mark the slice as JAX's `pscatter` so that transposing it again gives back the
  // all_gather_invariant (as `shardscope.all_gather_invariant` marks that op).
  std::vector<Attribute> names;
  for (const std::string& axis : axes)
    names.push_back(Attribute::string(axis));
  Operation* op = block->definingOp();
  op->setAttr(kPscatterAttr, Attribute::dictionary(
                                 {named("axes", Attribute::array(names)), named("dim", i64(dim))}));
  op->setInherent(kPscatterAttr, false);
  return block;
}

// The transpose of pscatter: all_gather_invariant over the same axes.
bool transposePscatter(RuleContext& ctx, const ir::DictionaryAttr& info) {
  Axes axes;
  if (const auto* names = info.get("axes").as<ir::ArrayAttr>())
    for (const Attribute& name : names->elements)
      if (const auto* text = name.as<ir::StringAttr>())
        axes.push_back(text->value);
  const auto* dimAttr = info.get("dim").as<ir::IntegerAttr>();
  int64_t dim = dimAttr ? dimAttr->value : 0;
  std::vector<ir::NamedAttribute> attrs{
      named("all_gather_dim", i64(dim)), named("channel_handle", ctx.engine.channelHandle()),
      named("replica_groups", i64Matrix(ctx.engine.groupsOf(ctx.scope, axes))),
      named("use_global_device_ids", Attribute::unit())};
  Value* gathered = ctx.b.create1("stablehlo.all_gather", {ctx.ct(0)}, ctx.op.operand(0)->type(),
                                  std::move(attrs));
  gathered->definingOp()->setAttr(analysis::kInvariantAttr, Attribute::unit());
  gathered->definingOp()->setInherent(analysis::kInvariantAttr, false);
  Axes lifted = ctx.engine.axesOf(ctx.op.operand(0));
  ctx.add(0, gathered, &lifted);
  return true;
}

Value* permuteBack(RuleContext& ctx, Value* ct) {
  const auto* pairs = ctx.op.attr("source_target_pairs").as<ir::DenseElementsAttr>();
  std::vector<std::vector<int64_t>> inverted;
  for (int64_t i = 0; pairs && i + 1 < pairs->numElements(); i += 2)
    inverted.push_back({pairs->intAt(i + 1), pairs->intAt(i)});
  std::vector<ir::NamedAttribute> attrs{named("source_target_pairs", i64Matrix(inverted))};
  if (ctx.op.hasAttr("channel_handle"))
    attrs.push_back(named("channel_handle", ctx.engine.channelHandle()));
  return ctx.b.create1("stablehlo.collective_permute", {ct}, ct->type(), std::move(attrs));
}

Value* allToAllBack(RuleContext& ctx, Value* ct) {
  std::vector<ir::NamedAttribute> attrs = sameGroups(ctx);
  int64_t split = ir::stablehlo::intAttr(ctx.op, "split_dimension").value_or(0);
  int64_t concat = ir::stablehlo::intAttr(ctx.op, "concat_dimension").value_or(0);
  int64_t count = ir::stablehlo::intAttr(ctx.op, "split_count").value_or(1);
  attrs.push_back(named("split_dimension", i64(concat)));
  attrs.push_back(named("concat_dimension", i64(split)));
  attrs.push_back(named("split_count", i64(count)));
  return ctx.b.create1("stablehlo.all_to_all", {ct}, ctx.op.operand(0)->type(), std::move(attrs));
}

// pmax, pmin and other non-sum reductions: JAX registers neither a JVP nor a transpose for them,
// so `grad` fails with its generic NotImplementedError text; `transpose` says why.
bool failNonlinearCollective(RuleContext& ctx, const ir::Operation& op,
                             analysis::CollectiveKind kind) {
  std::string name = analysis::jaxCollectiveName(op, kind);
  if (ctx.engine.mode() == Mode::Grad)
    return ctx.fail("Differentiation rule for '" + name + "' not implemented");
  return ctx.fail("'" + name + "' is not linear");
}

} // namespace

std::optional<bool> transposeCollective(RuleContext& ctx) {
  const Operation& op = ctx.op;
  if (const auto* info = op.attr(kPscatterAttr).as<ir::DictionaryAttr>())
    if (op.is("stablehlo.dynamic_slice") && ctx.isActive(0))
      return transposePscatter(ctx, *info);
  std::optional<analysis::CollectiveKind> kind = analysis::collectiveKind(op);
  if (!kind)
    return std::nullopt;
  const analysis::CollectiveUse* use = useOf(ctx.engine, op);
  if (!use || !use->match.matched)
    return ctx.fail("can't tell which manual axes '" + std::string(op.name()) + "' runs over" +
                    (use ? ": " + use->match.problem : std::string()));
  // The variance analysis may have read an unmarked all_gather as all_gather_invariant.
  kind = use->kind;
  Axes axes = use->match.axes;
  std::sort(axes.begin(), axes.end());
  if (op.numOperands() != 1 || op.numResults() != 1)
    return ctx.fail("only single-operand collectives can be transposed");
  Value* ct = ctx.ct(0);
  Type operandType = op.operand(0)->type();
  Axes lifted = unite(ctx.engine.axesOf(op.operand(0)), axes);
  bool naive = ctx.engine.rules() == CollectiveRules::Naive;
  Value* out = nullptr;
  switch (*kind) {
  case analysis::CollectiveKind::AllReduce:
    if (analysis::jaxCollectiveName(op, *kind) != "psum")
      return failNonlinearCollective(ctx, op, *kind);
    // Efficient: the transpose of psum is pbroadcast, a no-op on every device.
    out = naive ? ctx.engine.psum(ctx.scope, ctx.b, ct, axes) : ct;
    if (naive && op.attr("replica_groups"))
      out->definingOp()->setAttr("replica_groups", op.attr("replica_groups"));
    break;
  case analysis::CollectiveKind::AllGather:
    out = reduceScatter(ctx, ct, ir::stablehlo::intAttr(op, "all_gather_dim").value_or(0),
                        operandType);
    break;
  case analysis::CollectiveKind::AllGatherInvariant: {
    int64_t dim = ir::stablehlo::intAttr(op, "all_gather_dim").value_or(0);
    out = naive ? reduceScatter(ctx, ct, dim, operandType)
                : pscatter(ctx, ct, dim, operandType, use->match.axes);
    break;
  }
  case analysis::CollectiveKind::ReduceScatter:
    if (analysis::jaxCollectiveName(op, *kind) != "psum_scatter")
      return failNonlinearCollective(ctx, op, *kind);
    out = allGather(ctx, ct, ir::stablehlo::intAttr(op, "scatter_dimension").value_or(0),
                    operandType);
    break;
  case analysis::CollectiveKind::AllToAll:
    out = allToAllBack(ctx, ct);
    break;
  case analysis::CollectiveKind::CollectivePermute:
    out = permuteBack(ctx, ct);
    break;
  case analysis::CollectiveKind::CollectiveBroadcast:
    return ctx.fail("'stablehlo.collective_broadcast' can't be transposed");
  }
  ctx.add(0, out, &lifted);
  return true;
}

bool transposeManualComputation(RuleContext& ctx) {
  const Operation& op = ctx.op;
  Engine& engine = ctx.engine;
  const analysis::ManualComputationView* view = engine.variance().viewOf(op);
  const auto* in = op.attr("in_shardings").as<ir::ShardingPerValueAttr>();
  const auto* out = op.attr("out_shardings").as<ir::ShardingPerValueAttr>();
  if (!view || !in || !out || op.numRegions() != 1 || op.region(0).empty())
    return ctx.fail("malformed 'sdy.manual_computation'");
  const ir::Block& body = op.region(0).front();
  const Operation* ret = body.back();

  // Operands: the forward values the body needs (the non-linear operands; all of them for a
  // gradient, whose backward body recomputes the forward one), then the result cotangents.
  std::vector<Value*> operands;
  std::vector<ir::TensorSharding> inShardings, outShardings;
  std::vector<Type> argTypes, resultTypes;
  std::vector<unsigned> passed, seeded, active;
  for (unsigned j = 0; j < op.numOperands(); ++j) {
    if (ctx.isActive(j))
      active.push_back(j);
    if (!ctx.isActive(j) || engine.mode() == Mode::Grad) {
      passed.push_back(j);
      operands.push_back(ctx.primal(j));
      inShardings.push_back(in->shardings[j]);
      argTypes.push_back(body.argument(j)->type());
    }
  }
  for (unsigned i = 0; i < op.numResults(); ++i) {
    if (!ctx.ct(i))
      continue;
    seeded.push_back(i);
    operands.push_back(ctx.ct(i));
    inShardings.push_back(out->shardings[i]);
    argTypes.push_back(ret->operand(i)->type());
  }
  for (unsigned j : active) {
    outShardings.push_back(in->shardings[j]);
    resultTypes.push_back(op.operand(j)->type());
  }
  Operation* mc = ctx.b.create("sdy.manual_computation", operands, resultTypes,
                               {named("in_shardings", Attribute::shardingPerValue(inShardings)),
                                named("out_shardings", Attribute::shardingPerValue(outShardings)),
                                named("manual_axes", op.attr("manual_axes"))});
  ir::Block& newBody = mc->addRegion().front();

  Scope inner;
  inner.source = &body;
  inner.target = &newBody;
  inner.view = view;
  for (unsigned k = 0; k < passed.size(); ++k) {
    Value* arg = newBody.addArgument(argTypes[k]);
    arg->setNameHint(body.argument(passed[k])->nameHint());
    inner.primal[body.argument(passed[k])] = arg;
  }
  for (unsigned j : active)
    inner.active.insert(body.argument(j));
  OpBuilder b(newBody);
  b.setLoc(op.loc());
  Seeds seeds;
  seeds.cts.assign(op.numResults(), nullptr);
  seeds.axes.assign(op.numResults(), {});
  std::vector<Value*> ctArgs;
  for (unsigned k = 0; k < seeded.size(); ++k)
    ctArgs.push_back(newBody.addArgument(argTypes[passed.size() + k]));
  for (unsigned k = 0; k < seeded.size(); ++k) {
    unsigned i = seeded[k];
    Value* seed = ctArgs[k];
    seeds.axes[i] = view->results[i].manualAxes;
    std::sort(seeds.axes[i].begin(), seeds.axes[i].end());
    if (engine.rules() == CollectiveRules::Naive) {
      // The old rule: the cotangent of an output unmapped over some manual axes is divided by
      // their size (and psum'med back below, as the transpose of the unmapped input it becomes).
      int64_t size = 1;
      for (const std::string& axis : minus(view->manualAxes, view->results[i].manualAxes))
        for (const ir::MeshAxis& meshAxis : view->mesh.mesh->axes)
          if (meshAxis.name == axis)
            size *= meshAxis.size;
      if (size > 1)
        seed = b.binary("divide", seed, b.splat(seed->type(), static_cast<double>(size)));
    }
    seeds.cts[i] = seed;
  }
  std::optional<std::vector<Value*>> cts = engine.run(inner, seeds);
  if (!cts)
    return false;
  OpBuilder tail(newBody);
  tail.setLoc(op.loc());
  for (unsigned k = 0; k < active.size(); ++k) {
    Axes unmapped = minus(view->manualAxes, view->arguments[active[k]].manualAxes);
    if (engine.rules() == CollectiveRules::Naive && !unmapped.empty())
      (*cts)[k] = engine.psum(inner, tail, (*cts)[k], unmapped);
  }
  tail.setLoc(ret->loc());
  tail.create("sdy.return", *cts, {});
  for (unsigned k = 0; k < active.size(); ++k) {
    Axes lifted = engine.axesOf(op.operand(active[k]));
    ctx.add(active[k], mc->result(k), &lifted);
  }
  return true;
}

} // namespace shardscope::autodiff::detail
