#include "core/import/common/export_named_computations.h"

#include "core/import/common/op_rewrite.h"

#include <string>
#include <vector>

namespace shardscope::import_ {

namespace {

void collectPostOrder(ir::Operation& op, std::vector<ir::Operation*>& out) {
  for (unsigned r = 0; r < op.numRegions(); ++r)
    for (auto& block : op.region(r).blocks())
      for (auto& nested : block->ops())
        collectPostOrder(*nested, out);
  if (op.is("sdy.named_computation"))
    out.push_back(&op);
}

std::string uniqueFunctionName(const ir::Module& module, const std::string& base) {
  auto taken = [&](const std::string& name) {
    return module.lookupFunction(name) || module.lookupMeshOp(name);
  };
  if (!taken(base))
    return base;
  for (int n = 0;; ++n)
    if (std::string candidate = base + "_" + std::to_string(n); !taken(candidate))
      return candidate;
}

// A private function `name` holding the body of `named` (which is left empty).
ir::Operation* outline(ir::Module& module, ir::Operation& named, const std::string& name,
                       const std::string& originalName) {
  ir::Block& from = named.region(0).front();
  ir::Operation* terminator = from.back();
  std::vector<ir::Type> args, results;
  for (unsigned i = 0; i < from.numArguments(); ++i)
    args.push_back(from.argument(i)->type());
  for (const auto& result : named.results())
    results.push_back(result->type());
  auto fn = ir::Operation::create("func.func", {}, {}, named.loc());
  fn->setAttr("sym_name", ir::Attribute::string(name));
  fn->setAttr("function_type", ir::Attribute::type(ir::Type::function(args, results)));
  fn->setAttr("sym_visibility", ir::Attribute::string("private"));
  for (const char* attr : {"sym_name", "function_type", "sym_visibility"})
    fn->setInherent(attr, true);
  fn->setAttr("sdy.original_func_name", ir::Attribute::string(originalName));
  ir::Block& body = fn->addRegion().front();
  for (unsigned i = 0; i < from.numArguments(); ++i)
    from.argument(i)->replaceAllUsesWith(body.addArgument(args[i]));
  while (!from.empty()) {
    ir::Operation* op = from.ops().front().get();
    if (op == terminator) {
      std::vector<ir::Value*> values(op->operands().begin(), op->operands().end());
      body.push_back(ir::Operation::create("func.return", values, {}, op->loc()));
      op->dropAllReferences();
      from.erase(op);
      continue;
    }
    body.push_back(from.take(op));
  }
  return module.body().push_back(std::move(fn));
}

void exportNamedComputation(ir::Module& module, ir::Operation& named) {
  std::string original;
  if (const auto* name = named.attr("name").as<ir::StringAttr>())
    original = name->value;
  std::string name = uniqueFunctionName(module, original);
  ir::Operation* fn = outline(module, named, name, original);
  const auto* in = named.attr("in_shardings").as<ir::ShardingPerValueAttr>();
  const auto* out = named.attr("out_shardings").as<ir::ShardingPerValueAttr>();
  if (in)
    for (unsigned i = 0; i < in->shardings.size(); ++i)
      ir::func::setArgAttr(*fn, i, "sdy.sharding", ir::Attribute::sharding(in->shardings[i]));
  if (out)
    for (unsigned i = 0; i < out->shardings.size(); ++i)
      ir::func::setResultAttr(*fn, i, "sdy.sharding", ir::Attribute::sharding(out->shardings[i]));

  std::vector<ir::Type> results;
  for (const auto& result : named.results())
    results.push_back(result->type());
  auto call = ir::Operation::create("func.call", named.operands(), results, named.loc());
  call->setAttr("callee", ir::Attribute::symbolRef({name}));
  call->setInherent("callee", true);
  for (const auto& attr : named.attributes())
    if (!named.isInherent(attr.name))
      call->setAttr(attr.name, ir::Attribute(attr.value));
  if (out)
    call->setAttr("sdy.sharding", named.attr("out_shardings"));
  replaceOp(named, std::move(call));
}

} // namespace

bool exportNamedComputations(ir::Module& module, support::DiagnosticSink& /*sink*/) {
  std::vector<ir::Operation*> named;
  for (ir::Operation* fn : module.functions())
    collectPostOrder(*fn, named);
  for (ir::Operation* op : named)
    exportNamedComputation(module, *op);
  return true;
}

} // namespace shardscope::import_
