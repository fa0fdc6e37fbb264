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

} // namespace shardscope::import_
