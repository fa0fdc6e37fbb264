#include "core/import/gspmd/export_pipeline.h"

#include <algorithm>
#include <functional>
#include <set>

namespace shardscope::import_::gspmd {

namespace {

// Puts `replacement` where `op` is, hands it the uses of `op`'s results, and erases `op`.
void replaceOp(ir::Operation& op, std::unique_ptr<ir::Operation> replacement) {
  ir::Operation* created = op.parentBlock()->insertBefore(&op, std::move(replacement));
  for (unsigned i = 0; i < op.numResults(); ++i) {
    created->result(i)->setNameHint(op.result(i)->nameHint());
    op.result(i)->replaceAllUsesWith(created->result(i));
  }
  op.parentBlock()->erase(&op);
}

// Replaces `op` by its first operand.
void forwardOperand(ir::Operation& op) {
  op.result(0)->replaceAllUsesWith(op.operand(0));
  op.parentBlock()->erase(&op);
}

void copyWithSharding(ir::Operation& op, const char* shardingAttr) {
  std::vector<ir::Type> types = {op.result(0)->type()};
  std::vector<ir::Value*> operands = {op.operand(0)};
  auto copy = ir::Operation::create("mhlo.copy", operands, types, op.loc());
  if (const auto* sharding = op.attr(shardingAttr).as<ir::ShardingAttr>())
    copy->setAttr("sdy.sharding", ir::Attribute::shardingPerValue({sharding->sharding}));
  replaceOp(op, std::move(copy));
}

void exportOp(ir::Operation& op) {
  std::string_view name = op.name();
  if (name == "sdy.constant") {
    std::vector<ir::Type> types = {op.result(0)->type()};
    auto constant = ir::Operation::create("stablehlo.constant", {}, types, op.loc());
    for (const auto& attr : op.attributes()) {
      constant->setAttr(attr.name, ir::Attribute(attr.value));
      constant->setInherent(attr.name, op.isInherent(attr.name));
    }
    replaceOp(op, std::move(constant));
  } else if (name == "sdy.all_reduce" || name == "sdy.propagation_barrier") {
    forwardOperand(op);
  } else if (name == "sdy.reshard" || name == "sdy.sharding_constraint") {
    copyWithSharding(op, "sharding");
  } else if (name == "sdy.all_gather" || name == "sdy.all_slice" || name == "sdy.all_to_all" ||
             name == "sdy.collective_permute") {
    copyWithSharding(op, "out_sharding");
  } else if (name == "sdy.sharding_group") {
    op.parentBlock()->erase(&op);
  }
}

constexpr const char* kManualAxesAttr = "xla.sdy.manual_axes";

ir::Attribute manualAxesAttr(const std::vector<std::string>& axes) {
  return ir::Attribute::manualAxes(axes);
}

void setManualAxes(ir::Operation& op, const std::vector<std::string>& axes) {
  if (!axes.empty())
    op.setAttr(kManualAxesAttr, manualAxesAttr(axes));
}

// The sharding without the axes that are manual in the region.
ir::TensorSharding eraseManualAxes(ir::TensorSharding sharding,
                                   const std::vector<std::string>& manual) {
  auto isManual = [&](const ir::AxisRef& axis) {
    return std::find(manual.begin(), manual.end(), axis.name) != manual.end();
  };
  for (ir::DimensionSharding& dim : sharding.dims)
    std::erase_if(dim.axes, isManual);
  std::erase_if(sharding.replicatedAxes, isManual);
  std::erase_if(sharding.unreducedAxes, isManual);
  return sharding;
}

int64_t rankOf(ir::Type type) { return type.isTensor() ? type.rank() : 0; }

// Every op of a manual computation's body (nested manual computations aside, they have their
// own) is marked with the region's manual axes and, lacking a sharding, gets a closed replicated
// one on the computation's mesh, as XLA's shard map export does.
void markFunction(ir::Module& module, ir::Operation& fn, const std::vector<std::string>& axes,
                  const std::string& meshName, std::set<const ir::Operation*>& marked);

void markBody(ir::Module& module, ir::Operation& manual, const std::vector<std::string>& regionAxes,
              const std::string& meshName, std::set<const ir::Operation*>& marked) {
  std::function<void(ir::Operation&)> visit = [&](ir::Operation& op) {
    if (op.is("sdy.manual_computation"))
      return;
    if (const auto* callee = op.attr("callee").as<ir::SymbolRefAttr>();
        op.is("func.call") && callee && callee->path.size() == 1)
      if (ir::Operation* fn = module.lookupFunction(callee->path.front()))
        markFunction(module, *fn, regionAxes, meshName, marked);
    bool terminator = op.is("sdy.return") || op.is("stablehlo.return") || op.is("func.return");
    if (!terminator) {
      if (!op.hasAttr("sdy.sharding")) {
        std::vector<ir::TensorSharding> shardings;
        for (const auto& result : op.results()) {
          ir::TensorSharding replicated;
          replicated.meshName = meshName;
          replicated.dims.assign(rankOf(result->type()), {});
          shardings.push_back(std::move(replicated));
        }
        if (shardings.empty()) {
          shardings.emplace_back();
          shardings.back().meshName = meshName;
        }
        op.setAttr("sdy.sharding", ir::Attribute::shardingPerValue(std::move(shardings)));
      }
      setManualAxes(op, regionAxes);
    }
    for (unsigned r = 0; r < op.numRegions(); ++r)
      for (auto& block : op.region(r).blocks())
        for (auto& nested : block->ops())
          visit(*nested);
  };
  for (auto& block : manual.region(0).blocks())
    for (auto& op : block->ops())
      visit(*op);
}

// A function called from a manual computation runs on the manual axes too: its arguments,
// results and ops are marked like the body's (once).
void markFunction(ir::Module& module, ir::Operation& fn, const std::vector<std::string>& axes,
                  const std::string& meshName, std::set<const ir::Operation*>& marked) {
  if (!marked.insert(&fn).second || !ir::func::body(fn))
    return;
  ir::Type type = ir::func::type(fn);
  auto markSide = [&](size_t count, auto getType, auto getAttrs, auto setAttr) {
    for (unsigned i = 0; i < count; ++i) {
      const ir::DictionaryAttr* attrs = getAttrs(fn, i);
      if (!attrs || !attrs->get("sdy.sharding")) {
        ir::TensorSharding replicated;
        replicated.meshName = meshName;
        replicated.dims.assign(rankOf(getType(i)), {});
        setAttr(fn, i, "sdy.sharding", ir::Attribute::sharding(std::move(replicated)));
      }
      if (!axes.empty())
        setAttr(fn, i, kManualAxesAttr, manualAxesAttr(axes));
    }
  };
  markSide(type.elements().size(), [&](unsigned i) { return type.elements()[i]; },
           ir::func::argAttrs, ir::func::setArgAttr);
  markSide(type.results().size(), [&](unsigned i) { return type.results()[i]; },
           ir::func::resultAttrs, ir::func::setResultAttr);
  // The function body is marked like a manual computation's region.
  markBody(module, fn, axes, meshName, marked);
}

// `sharding`'s value through a copy with that sharding, then a custom call to `target`.
ir::Operation* copyThenCustomCall(ir::Operation& before, ir::Value* value,
                                  const ir::TensorSharding& copySharding,
                                  const std::vector<std::string>& copyAxes, const char* target,
                                  ir::Type resultType, const ir::TensorSharding& callSharding,
                                  const std::vector<std::string>& callAxes) {
  ir::Block& block = *before.parentBlock();
  std::vector<ir::Value*> operands = {value};
  std::vector<ir::Type> copyTypes = {value->type()};
  ir::Operation* copy = block.insertBefore(
      &before, ir::Operation::create("mhlo.copy", operands, copyTypes, before.loc()));
  copy->setAttr("sdy.sharding", ir::Attribute::shardingPerValue({copySharding}));
  setManualAxes(*copy, copyAxes);
  std::vector<ir::Value*> callOperands = {copy->result(0)};
  std::vector<ir::Type> callTypes = {resultType};
  ir::Operation* call = block.insertBefore(
      &before, ir::Operation::create("stablehlo.custom_call", callOperands, callTypes,
                                     before.loc()));
  call->setAttr("call_target_name", ir::Attribute::string(target));
  call->setAttr("sdy.sharding", ir::Attribute::shardingPerValue({callSharding}));
  setManualAxes(*call, callAxes);
  return call;
}

// Replaces `manual` by XLA's pattern: per operand a copy with the in sharding and
// `@SPMDFullToShardShape`, the body inlined, per result a copy with the local sharding and
// `@SPMDShardToFullShape` with the out sharding.
void inlineManualComputation(ir::Operation& manual, const std::vector<std::string>& parentAxes,
                             const std::vector<std::string>& regionAxes) {
  const auto* ins = manual.attr("in_shardings").as<ir::ShardingPerValueAttr>();
  const auto* outs = manual.attr("out_shardings").as<ir::ShardingPerValueAttr>();
  ir::Block& body = manual.region(0).front();
  for (unsigned i = 0; i < body.numArguments(); ++i) {
    ir::Value* local = body.argument(i);
    ir::Value* global = manual.operand(i);
    if (!ins || i >= ins->shardings.size() || !local->type().isTensor()) {
      local->replaceAllUsesWith(global);
      continue;
    }
    const ir::TensorSharding& in = ins->shardings[i];
    ir::Operation* fullToShard =
        copyThenCustomCall(manual, global, in, parentAxes, "SPMDFullToShardShape", local->type(),
                           eraseManualAxes(in, regionAxes), regionAxes);
    local->replaceAllUsesWith(fullToShard->result(0));
  }
  ir::Operation* terminator = body.back();
  std::vector<ir::Operation*> moved;
  for (auto& op : body.ops())
    if (op.get() != terminator)
      moved.push_back(op.get());
  for (ir::Operation* op : moved)
    manual.parentBlock()->insertBefore(&manual, body.take(op));
  for (unsigned i = 0; i < manual.numResults(); ++i) {
    ir::Value* local = terminator->operand(i);
    ir::Value* result = manual.result(i);
    if (!outs || i >= outs->shardings.size() || !result->type().isTensor()) {
      result->replaceAllUsesWith(local);
      continue;
    }
    const ir::TensorSharding& out = outs->shardings[i];
    ir::Operation* shardToFull =
        copyThenCustomCall(manual, local, eraseManualAxes(out, regionAxes), regionAxes,
                           "SPMDShardToFullShape", result->type(), out, parentAxes);
    result->replaceAllUsesWith(shardToFull->result(0));
  }
  terminator->dropAllReferences();
  manual.parentBlock()->erase(&manual);
}

std::vector<std::string> concatAxes(std::vector<std::string> a, const ir::Operation& manual) {
  if (const auto* own = manual.attr("manual_axes").as<ir::ManualAxesAttr>())
    a.insert(a.end(), own->axes.begin(), own->axes.end());
  return a;
}

std::vector<std::string> parentManualAxes(const ir::Operation& manual) {
  std::vector<const ir::Operation*> chain;
  for (const ir::Operation* op = manual.parentOp(); op; op = op->parentOp())
    if (op->is("sdy.manual_computation"))
      chain.insert(chain.begin(), op);
  std::vector<std::string> axes;
  for (const ir::Operation* op : chain)
    axes = concatAxes(std::move(axes), *op);
  return axes;
}

std::string meshNameOf(const ir::Operation& manual) {
  for (const char* name : {"in_shardings", "out_shardings"})
    if (const auto* perValue = manual.attr(name).as<ir::ShardingPerValueAttr>())
      if (!perValue->shardings.empty())
        return perValue->shardings.front().meshName;
  return {};
}

} // namespace

bool exportManualComputations(ir::Module& module, support::DiagnosticSink& /*sink*/) {
  std::vector<ir::Operation*> manuals;
  for (ir::Operation* fn : module.functions())
    fn->walk([&](ir::Operation& op) {
      if (op.is("sdy.manual_computation"))
        manuals.push_back(&op);
    });
  // Mark every body first (outer before inner), then inline innermost first.
  std::set<const ir::Operation*> marked;
  for (ir::Operation* manual : manuals) {
    std::string meshName = meshNameOf(*manual);
    if (!meshName.empty())
      markBody(module, *manual, concatAxes(parentManualAxes(*manual), *manual), meshName,
               marked);
  }
  for (auto it = manuals.rbegin(); it != manuals.rend(); ++it) {
    std::vector<std::string> parent = parentManualAxes(**it);
    std::vector<std::string> region = concatAxes(parent, **it);
    if (meshNameOf(**it).empty())
      region = parent; // no in/out shardings: nothing is manual inside
    inlineManualComputation(**it, parent, region);
  }
  return true;
}

bool exportSdyOps(ir::Module& module, support::DiagnosticSink& /*sink*/) {
  for (ir::Operation* fn : module.functions()) {
    std::vector<ir::Operation*> ops;
    fn->walk([&](ir::Operation& op) {
      if (op.dialect() == "sdy")
        ops.push_back(&op);
    });
    for (ir::Operation* op : ops)
      exportOp(*op);
  }
  return true;
}

bool runGspmdExportPipeline(ir::Module& module, ExportShardingsOptions options,
                            const PipelineStep& exportNamedComputations,
                            support::DiagnosticSink& sink) {
  if (exportNamedComputations && !exportNamedComputations(module, sink))
    return false;
  if (!exportSdyOps(module, sink) || !exportManualComputations(module, sink))
    return false;
  options.addMissingShardingToControlFlow = true;
  if (!exportShardings(module, options, sink))
    return false;
  // XLA's pipeline consumes the names the named-computation export leaves on functions (its
  // call-graph unflattening, which ShardScope does not model, reads and drops them).
  for (ir::Operation* fn : module.functions())
    fn->removeAttr("sdy.original_func_name");
  return true;
}

} // namespace shardscope::import_::gspmd
