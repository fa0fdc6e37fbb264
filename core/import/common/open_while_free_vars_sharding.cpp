#include "core/import/common/open_while_free_vars_sharding.h"

#include "core/import/common/op_rewrite.h"

#include <algorithm>
#include <vector>

namespace shardscope::import_ {

namespace {

bool isProperAncestor(const ir::Operation& ancestor, const ir::Operation* op) {
  for (const ir::Operation* p = op ? op->parentOp() : nullptr; p; p = p->parentOp())
    if (p == &ancestor)
      return true;
  return false;
}

// The values used inside `loop`'s regions but defined outside them, in first-use order.
std::vector<ir::Value*> freeVariables(ir::Operation& loop) {
  std::vector<ir::Value*> free;
  loop.walk([&](ir::Operation& op) {
    if (&op == &loop)
      return;
    for (ir::Value* operand : op.operands()) {
      const ir::Operation* owner = operand->definingOp()
                                       ? operand->definingOp()
                                       : operand->ownerBlock()->parentOp();
      bool inside = owner == &loop || isProperAncestor(loop, owner);
      if (operand->isBlockArgument() && owner == &loop)
        inside = true;
      if (!inside && std::find(free.begin(), free.end(), operand) == free.end())
        free.push_back(operand);
    }
  });
  return free;
}

ir::TensorSharding fullyOpenLike(const ir::TensorSharding& sharding) {
  ir::TensorSharding open;
  open.meshName = sharding.meshName;
  open.inlineMesh = sharding.inlineMesh;
  open.dims.resize(sharding.dims.size());
  for (auto& dim : open.dims)
    dim.isClosed = false;
  return open;
}

void openFreeVariables(ir::Operation& loop) {
  for (ir::Value* value : freeVariables(loop)) {
    const ir::TensorSharding* sharding = ir::shardingOf(*value);
    if (!sharding || sharding->dims.empty())
      continue;
    ir::TensorSharding open = fullyOpenLike(*sharding);
    if (open == *sharding)
      continue;
    auto created = unaryOpLike(loop, "sdy.sharding_constraint", *value, "sharding",
                               ir::Attribute::sharding(std::move(open)));
    if (value->definingOp())
      created->setLoc(value->definingOp()->loc());
    ir::Operation* constraint = loop.parentBlock()->insertBefore(&loop, std::move(created));
    std::vector<ir::Use> uses = value->uses();
    for (const ir::Use& use : uses)
      if (isProperAncestor(loop, use.user))
        use.user->setOperand(use.index, constraint->result(0));
  }
}

} // namespace

bool openWhileFreeVarsSharding(ir::Module& module, support::DiagnosticSink& /*sink*/) {
  for (ir::Operation* fn : module.functions()) {
    std::vector<ir::Operation*> loops;
    fn->walk([&](ir::Operation& op) {
      if (op.is("stablehlo.while"))
        loops.push_back(&op);
    });
    for (ir::Operation* loop : loops)
      openFreeVariables(*loop);
  }
  return true;
}

} // namespace shardscope::import_
