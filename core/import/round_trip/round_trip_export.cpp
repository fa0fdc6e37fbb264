#include "core/import/round_trip/round_trip_export.h"

#include "core/import/common/frontend_attrs.h"
#include "core/import/common/import_sdy_custom_calls.h"
#include "core/import/common/op_rewrite.h"
#include "core/import/round_trip/clone_manual_computation_calls.h"
#include "core/import/round_trip/dedup_meshes.h"
#include "core/import/round_trip/round_trip_constants.h"

#include <string>
#include <vector>

namespace shardscope::import_ {

namespace {

constexpr std::string_view kDirections[] = {"NONE", "FORWARD", "BACKWARD", "BOTH"};

ir::Type i64Type() { return ir::Type::scalar(ir::ElementType::I64); }

std::unique_ptr<ir::Operation> customCall(const ir::Operation& at, std::string_view target,
                                          std::span<ir::Value* const> operands,
                                          std::span<const ir::Type> resultTypes,
                                          bool hasSideEffect) {
  auto call = ir::Operation::create("stablehlo.custom_call", operands, resultTypes, at.loc());
  call->setAttr("call_target_name", ir::Attribute::string(std::string(target)));
  call->setInherent("call_target_name", true);
  if (hasSideEffect) {
    call->setAttr("has_side_effect", ir::Attribute::boolean(true));
    call->setInherent("has_side_effect", true);
  }
  return call;
}

std::vector<ir::Type> resultTypesOf(const ir::Operation& op) {
  std::vector<ir::Type> types;
  for (const auto& result : op.results())
    types.push_back(result->type());
  return types;
}

void exportOp(ir::Operation& op) {
  if (op.is("sdy.constant")) {
    auto constant = ir::Operation::create("stablehlo.constant", {}, resultTypesOf(op), op.loc());
    for (const auto& attr : op.attributes()) {
      constant->setAttr(attr.name, ir::Attribute(attr.value));
      constant->setInherent(attr.name, op.isInherent(attr.name));
    }
    replaceOp(op, std::move(constant));
  } else if (op.is("sdy.sharding_constraint")) {
    const auto* sharding = op.attr("sharding").as<ir::ShardingAttr>();
    auto call = customCall(op, kShardingCustomCallTarget, op.operands(), resultTypesOf(op),
                           /*hasSideEffect=*/false);
    for (const auto& attr : op.attributes())
      if (!op.isInherent(attr.name))
        call->setAttr(attr.name, ir::Attribute(attr.value));
    if (sharding)
      call->setAttr("sdy.sharding", ir::Attribute::shardingPerValue({sharding->sharding}));
    replaceOp(op, std::move(call));
  } else if (op.is("sdy.sharding_group")) {
    const auto* id = op.attr("group_id").as<ir::IntegerAttr>();
    auto call = customCall(op, kShardingGroupCustomCallTarget, op.operands(), {},
                           /*hasSideEffect=*/true);
    if (id)
      setFrontendString(*call, kShardingGroupIdAttr,
                        ir::Attribute::integer(id->value, i64Type()).str());
    replaceOp(op, std::move(call));
  } else if (op.is("sdy.propagation_barrier")) {
    std::string direction;
    if (const auto* text = op.attr("allowed_direction").as<ir::OpaqueAttr>())
      direction = text->text;
    auto call = customCall(op, kPropagationBarrierCustomCallTarget, op.operands(),
                           resultTypesOf(op), /*hasSideEffect=*/true);
    for (size_t i = 0; i < std::size(kDirections); ++i)
      if (kDirections[i] == direction)
        setFrontendString(*call, kAllowedDirectionAttr,
                          ir::Attribute::integer(static_cast<int64_t>(i),
                                                 ir::Type::scalar(ir::ElementType::I32))
                              .str());
    replaceOp(op, std::move(call));
  }
}

void collectManualComputationsPostOrder(ir::Operation& op, std::vector<ir::Operation*>& out) {
  for (unsigned r = 0; r < op.numRegions(); ++r)
    for (auto& block : op.region(r).blocks())
      for (auto& nested : block->ops())
        collectManualComputationsPostOrder(*nested, out);
  if (op.is("sdy.manual_computation"))
    out.push_back(&op);
}

// Moves the body of `manual` into a new public function appended to the module.
ir::Operation* outlineBody(ir::Module& module, ir::Operation& manual, const std::string& name) {
  std::vector<ir::Type> results;
  for (ir::Value* v : manual.region(0).front().back()->operands())
    results.push_back(v->type());
  return outlineRegion(module, manual, name, results, /*visibility=*/"");
}

void exportShardMap(ir::Module& module, ir::Operation& manual) {
  std::string inShardings = manual.attr("in_shardings").str();
  std::string outShardings = manual.attr("out_shardings").str();
  std::string manualAxes = manual.attr("manual_axes").str();
  std::vector<ir::Type> localArgs;
  for (unsigned i = 0; i < manual.region(0).front().numArguments(); ++i)
    localArgs.push_back(manual.region(0).front().argument(i)->type());
  std::string name = uniqueSymbolName(module, kManualComputationBodyFuncName);
  ir::Operation* body = outlineBody(module, manual, name);
  ir::Block* block = manual.parentBlock();

  std::vector<ir::Value*> callOperands;
  if (manual.numOperands() > 0) {
    auto g2l = customCall(manual, kGlobalToLocalShapeTarget, manual.operands(), localArgs,
                          /*hasSideEffect=*/true);
    setFrontendString(*g2l, kInShardingsAttr, inShardings);
    setFrontendString(*g2l, kManualAxesAttr, manualAxes);
    ir::Operation* inserted = block->insertBefore(&manual, std::move(g2l));
    for (const auto& result : inserted->results())
      callOperands.push_back(result.get());
  }
  auto call = ir::Operation::create("func.call", callOperands,
                                    ir::func::type(*body).results(), manual.loc());
  call->setAttr("callee", ir::Attribute::symbolRef({name}));
  call->setInherent("callee", true);
  ir::Operation* callOp = block->insertBefore(&manual, std::move(call));
  if (manual.numResults() > 0) {
    std::vector<ir::Value*> locals;
    for (const auto& result : callOp->results())
      locals.push_back(result.get());
    auto l2g = customCall(manual, kLocalToGlobalShapeTarget, locals, resultTypesOf(manual),
                          /*hasSideEffect=*/false);
    setFrontendString(*l2g, kManualAxesAttr, manualAxes);
    setFrontendString(*l2g, kOutShardingsAttr, outShardings);
    replaceOp(manual, std::move(l2g));
    return;
  }
  manual.dropAllReferences();
  block->erase(&manual);
}

void exportFunctionAttrs(ir::Operation& fn) {
  ir::Type type = ir::func::type(fn);
  for (unsigned i = 0; i < type.elements().size(); ++i)
    if (const auto* attrs = ir::func::argAttrs(fn, i))
      if (ir::Attribute sharding = attrs->get("sdy.sharding"))
        setArgFrontendString(fn, i, kShardingRoundTripAttr, sharding.str());
  ir::Block* body = ir::func::body(fn);
  ir::Operation* ret = body ? body->back() : nullptr;
  if (!ret || !ret->is("func.return"))
    return;
  for (unsigned i = 0; i < ret->numOperands(); ++i) {
    const auto* attrs = ir::func::resultAttrs(fn, i);
    const auto* sharding = attrs ? attrs->get("sdy.sharding").as<ir::ShardingAttr>() : nullptr;
    if (!sharding)
      continue;
    // HLO drops frontend attributes of results, so the sharding rides on a custom call.
    ir::Value* value = ret->operand(i);
    ir::Value* operands[] = {value};
    ir::Type types[] = {value->type()};
    auto call = customCall(*ret, kFuncResultShardingTarget, operands, types,
                           /*hasSideEffect=*/true);
    setFrontendString(*call, kShardingRoundTripAttr,
                      ir::Attribute::shardingPerValue({sharding->sharding}).str());
    ir::Operation* inserted = body->insertBefore(ret, std::move(call));
    ret->setOperand(i, inserted->result(0));
  }
}

void exportOpAttrs(ir::Operation& op) {
  if (ir::Attribute sharding = op.attr("sdy.sharding"); sharding.as<ir::ShardingPerValueAttr>())
    setFrontendString(op, kShardingRoundTripAttr, sharding.str());
  if (ir::Attribute rule = op.attr("sdy.sharding_rule")) {
    setFrontendString(op, kShardingRuleRoundTripAttr, rule.str());
    op.removeAttr("sdy.sharding_rule");
  }
}

std::vector<ir::Operation*> meshOpsOf(const ir::Module& module) {
  std::vector<ir::Operation*> meshes;
  for (const auto& op : module.body().ops())
    if (op->is("sdy.mesh"))
      meshes.push_back(op.get());
  return meshes;
}

// Replaces `sdy.sharding`s by `mhlo.sharding` strings (when a writer is given) and erases the
// meshes, as XLA's StableHLO sharding export does.
void exportHloShardings(ir::Module& module, const HloShardingWriter& writer) {
  auto hlo = [&](const ir::TensorSharding& sharding, ir::Type type) -> ir::Attribute {
    const ir::Mesh* mesh = ir::resolveMesh(module, sharding);
    if (!writer || !mesh)
      return {};
    auto text = writer(sharding, *mesh, static_cast<int64_t>(type.shape().size()));
    return text ? ir::Attribute::string(*text) : ir::Attribute();
  };
  for (ir::Operation* fn : module.functions()) {
    ir::Type type = ir::func::type(*fn);
    for (unsigned i = 0; i < type.elements().size(); ++i)
      if (const auto* attrs = ir::func::argAttrs(*fn, i))
        if (const auto* s = attrs->get("sdy.sharding").as<ir::ShardingAttr>()) {
          ir::func::setArgAttr(*fn, i, kXlaShardingAttr, hlo(s->sharding, type.elements()[i]));
          ir::func::setArgAttr(*fn, i, "sdy.sharding", {});
        }
    for (unsigned i = 0; i < type.results().size(); ++i)
      if (const auto* attrs = ir::func::resultAttrs(*fn, i))
        if (const auto* s = attrs->get("sdy.sharding").as<ir::ShardingAttr>()) {
          ir::func::setResultAttr(*fn, i, kXlaShardingAttr, hlo(s->sharding, type.results()[i]));
          ir::func::setResultAttr(*fn, i, "sdy.sharding", {});
        }
    fn->walk([&](ir::Operation& op) {
      const auto* s = op.attr("sdy.sharding").as<ir::ShardingPerValueAttr>();
      if (!s)
        return;
      if (s->shardings.size() == 1 && op.numResults() == 1)
        if (ir::Attribute text = hlo(s->shardings[0], op.result(0)->type()))
          op.setAttr(kXlaShardingAttr, text);
      op.removeAttr("sdy.sharding");
    });
  }
  for (ir::Operation* mesh : meshOpsOf(module))
    module.body().erase(mesh);
}

} // namespace

bool exportSdyOps(ir::Module& module, support::DiagnosticSink& /*sink*/) {
  for (ir::Operation* fn : module.functions())
    forEachNestedOp(*fn, exportOp);
  return true;
}

bool exportShardMaps(ir::Module& module, support::DiagnosticSink& /*sink*/) {
  std::vector<ir::Operation*> manuals;
  for (ir::Operation* fn : module.functions())
    collectManualComputationsPostOrder(*fn, manuals);
  for (ir::Operation* manual : manuals)
    exportShardMap(module, *manual);
  return true;
}

bool exportShardyAttrs(ir::Module& module, support::DiagnosticSink& /*sink*/) {
  for (ir::Operation* fn : module.functions()) {
    exportFunctionAttrs(*fn);
    fn->walk([&](ir::Operation& op) {
      if (&op != fn)
        exportOpAttrs(op);
    });
  }
  std::vector<ir::NamedAttribute> meshes;
  for (ir::Operation* mesh : meshOpsOf(module))
    if (const auto* name = mesh->attr("sym_name").as<ir::StringAttr>())
      meshes.push_back({name->value, mesh->attr("mesh").impl()});
  if (!meshes.empty())
    setFrontendString(module.op(), kMeshesRoundTripAttr,
                      ir::Attribute::dictionary(std::move(meshes)).str());
  return true;
}

bool runRoundTripExport(ir::Module& module, const RoundTripExportOptions& options,
                        support::DiagnosticSink& sink) {
  if (!options.keepMeshesInlined && !liftInlinedMeshes(module, sink))
    return false;
  if (!dedupMeshes(module, sink) || !exportSdyOps(module, sink) ||
      !exportShardMaps(module, sink) || !exportShardyAttrs(module, sink))
    return false;
  exportHloShardings(module, options.hloShardingWriter);
  return true;
}

} // namespace shardscope::import_
