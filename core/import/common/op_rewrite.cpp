#include "core/import/common/op_rewrite.h"

#include "core/ir/attribute.h"

#include <vector>

namespace shardscope::import_ {

ir::Operation* replaceOp(ir::Operation& op, std::unique_ptr<ir::Operation> replacement) {
  ir::Block* block = op.parentBlock();
  ir::Operation* inserted = block->insertBefore(&op, std::move(replacement));
  for (unsigned i = 0; i < op.numResults(); ++i) {
    inserted->result(i)->setNameHint(op.result(i)->nameHint());
    op.result(i)->replaceAllUsesWith(inserted->result(i));
  }
  op.dropAllReferences();
  block->erase(&op);
  return inserted;
}

void replaceOpWithOperands(ir::Operation& op) {
  for (unsigned i = 0; i < op.numResults(); ++i)
    op.result(i)->replaceAllUsesWith(op.operand(i));
  op.dropAllReferences();
  op.parentBlock()->erase(&op);
}

std::unique_ptr<ir::Operation> unaryOpLike(const ir::Operation& op, std::string_view name,
                                           ir::Value& operand, std::string_view attrName,
                                           ir::Attribute attr) {
  ir::Value* operands[] = {&operand};
  ir::Type types[] = {operand.type()};
  auto created = ir::Operation::create(name, operands, types, op.loc());
  if (attr) {
    created->setAttr(attrName, attr);
    created->setInherent(attrName, true);
  }
  return created;
}

std::string_view customCallTarget(const ir::Operation& op) {
  if (!op.is("stablehlo.custom_call") && !op.is("mhlo.custom_call"))
    return {};
  if (const auto* target = op.attr("call_target_name").as<ir::StringAttr>())
    return target->value;
  return {};
}

ir::Operation* outlineRegion(ir::Module& module, ir::Operation& op, const std::string& name,
                             const std::vector<ir::Type>& results, std::string_view visibility) {
  ir::Block& from = op.region(0).front();
  ir::Operation* terminator = from.back();
  std::vector<ir::Type> args;
  for (unsigned i = 0; i < from.numArguments(); ++i)
    args.push_back(from.argument(i)->type());
  auto fn = ir::Operation::create("func.func", {}, {}, op.loc());
  fn->setAttr("sym_name", ir::Attribute::string(name));
  fn->setAttr("function_type", ir::Attribute::type(ir::Type::function(args, results)));
  fn->setInherent("sym_name", true);
  fn->setInherent("function_type", true);
  if (!visibility.empty()) {
    fn->setAttr("sym_visibility", ir::Attribute::string(std::string(visibility)));
    fn->setInherent("sym_visibility", true);
  }
  ir::Block& body = fn->addRegion().front();
  for (unsigned i = 0; i < from.numArguments(); ++i)
    from.argument(i)->replaceAllUsesWith(body.addArgument(args[i]));
  while (!from.empty()) {
    ir::Operation* next = from.ops().front().get();
    if (next == terminator) {
      std::vector<ir::Value*> values(next->operands().begin(), next->operands().end());
      body.push_back(ir::Operation::create("func.return", values, {}, next->loc()));
      next->dropAllReferences();
      from.erase(next);
      continue;
    }
    body.push_back(from.take(next));
  }
  return module.body().push_back(std::move(fn));
}

} // namespace shardscope::import_
