#include "core/import/round_trip/clone_manual_computation_calls.h"

#include "core/import/round_trip/round_trip_constants.h"

#include <set>
#include <string>
#include <vector>

namespace shardscope::import_ {

std::string uniqueSymbolName(const ir::Module& module, std::string_view base) {
  auto taken = [&](std::string_view name) {
    return module.lookupFunction(name) || module.lookupMeshOp(name);
  };
  if (!taken(base))
    return std::string(base);
  for (int n = 0;; ++n) {
    std::string candidate = std::string(base) + "_" + std::to_string(n);
    if (!taken(candidate))
      return candidate;
  }
}

bool cloneManualComputationCalls(ir::Module& module, support::DiagnosticSink& /*sink*/) {
  std::vector<ir::Operation*> calls;
  module.op().walk([&](ir::Operation& op) {
    const auto* callee = op.attr("callee").as<ir::SymbolRefAttr>();
    if (op.is("func.call") && callee && callee->path.size() == 1 &&
        callee->path[0].find(kManualComputationBodyFuncName) != std::string::npos)
      calls.push_back(&op);
  });
  std::set<std::string> seen;
  for (ir::Operation* call : calls) {
    std::string callee = call->attr("callee").as<ir::SymbolRefAttr>()->path[0];
    if (seen.insert(callee).second)
      continue;
    ir::Operation* fn = module.lookupFunction(callee);
    if (!fn)
      continue;
    ir::Operation::ValueMapping mapping;
    std::unique_ptr<ir::Operation> copy = fn->clone(mapping);
    std::string name = uniqueSymbolName(module, callee);
    copy->setAttr("sym_name", ir::Attribute::string(name));
    module.body().push_back(std::move(copy));
    call->setAttr("callee", ir::Attribute::symbolRef({name}));
  }
  return true;
}

} // namespace shardscope::import_
