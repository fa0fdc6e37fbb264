// Copying functions and walking the call graph as Shardy's utils.cc does.
#include "core/propagation/detail/func_clone.h"

#include <set>

namespace shardscope::propagation::detail {

using ir::Operation;

std::string calleeOf(const Operation& call) {
  const auto* callee = call.attr("callee").as<ir::SymbolRefAttr>();
  return callee && !callee->path.empty() ? callee->path.back() : std::string();
}

std::string originalFuncName(const Operation& fn) {
  if (const auto* original = fn.attr("sdy.original_func_name").as<ir::StringAttr>())
    return original->value;
  return std::string(ir::func::name(fn));
}

std::string SymbolNamer::unique(const ir::Module& module, const std::string& name) {
  auto taken = [&](const std::string& n) {
    return module.lookupFunction(n) || module.lookupMeshOp(n);
  };
  if (!taken(name))
    return name;
  std::string candidate;
  do
    candidate = name + "_" + std::to_string(counter++);
  while (taken(candidate));
  return candidate;
}

std::string cloneFuncRecursively(ir::Module& module, const Operation& fn, SymbolNamer& namer) {
  Operation::ValueMapping mapping;
  std::unique_ptr<Operation> copy = fn.clone(mapping);
  copy->setAttr("sdy.original_func_name", ir::Attribute::string(originalFuncName(fn)));
  std::vector<Operation*> calls;
  copy->walk([&](Operation& op) {
    if (op.is("func.call"))
      calls.push_back(&op);
  });
  for (Operation* call : calls)
    if (const Operation* callee = module.lookupFunction(calleeOf(*call)))
      call->setAttr("callee",
                    ir::Attribute::symbolRef({cloneFuncRecursively(module, *callee, namer)}));
  std::string name = namer.unique(module, std::string(ir::func::name(fn)));
  copy->setAttr("sym_name", ir::Attribute::string(name));
  module.body().push_back(std::move(copy));
  return name;
}

namespace {

bool isPrivate(const Operation& fn) {
  const auto* visibility = fn.attr("sym_visibility").as<ir::StringAttr>();
  return visibility && visibility->value != "public";
}

void postOrder(const ir::Module& module, Operation* fn, std::set<const Operation*>& seen,
               std::vector<Operation*>& order) {
  if (!seen.insert(fn).second)
    return;
  std::vector<Operation*> callees;
  fn->walk([&](Operation& op) {
    if (op.is("func.call"))
      if (Operation* callee = module.lookupFunction(calleeOf(op)))
        callees.push_back(callee);
  });
  for (Operation* callee : callees)
    postOrder(module, callee, seen, order);
  order.push_back(fn);
}

} // namespace

std::vector<Operation*> funcsCalleesFirst(const ir::Module& module) {
  std::set<const Operation*> seen;
  std::vector<Operation*> order;
  for (Operation* fn : module.functions())
    if (!isPrivate(*fn))
      postOrder(module, fn, seen, order);
  return order;
}

} // namespace shardscope::propagation::detail
