#include "core/import/gspmd/export_pipeline.h"

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

} // namespace

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
                            support::DiagnosticSink& sink) {
  for (ir::Operation* fn : module.functions())
    fn->walk([&](ir::Operation& op) {
      if (op.is("sdy.manual_computation") && !op.parentOfName("sdy.manual_computation"))
        sink.warning(op.loc(), "'sdy.manual_computation' is not exported to GSPMD custom calls "
                               "(not supported yet): it and its body keep their Shardy form, meshes inline");
    });
  if (!exportSdyOps(module, sink))
    return false;
  options.addMissingShardingToControlFlow = true;
  return exportShardings(module, options, sink);
}

} // namespace shardscope::import_::gspmd
