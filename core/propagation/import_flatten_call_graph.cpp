// Shardy's import passes on calls: call-graph flattening, function result shardings onto calls.
#include "core/propagation/import_flatten_call_graph.h"

#include "core/propagation/detail/func_clone.h"

#include <set>
#include <span>

namespace shardscope::propagation {

namespace {

// The first call that closes a cycle of the call graph (a function reaching itself), searched
// depth first from every function; null when the graph is acyclic.
const ir::Operation* findRecursiveCall(const ir::Module& module, const ir::Operation& fn,
                                       std::set<const ir::Operation*>& onPath,
                                       std::set<const ir::Operation*>& done) {
  if (done.count(&fn))
    return nullptr;
  onPath.insert(&fn);
  const ir::Operation* found = nullptr;
  fn.walk([&](const ir::Operation& op) {
    if (found || !op.is("func.call"))
      return;
    const ir::Operation* callee = module.lookupFunction(detail::calleeOf(op));
    if (!callee)
      return;
    if (onPath.count(callee))
      found = &op;
    else
      found = findRecursiveCall(module, *callee, onPath, done);
  });
  onPath.erase(&fn);
  done.insert(&fn);
  return found;
}

} // namespace

bool flattenCallGraph(ir::Module& module, support::DiagnosticSink& sink) {
  // Copying a function copies everything it calls, which never ends on a recursive call graph.
  std::set<const ir::Operation*> onPath, done;
  for (const ir::Operation* fn : module.functions())
    if (const ir::Operation* call = findRecursiveCall(module, *fn, onPath, done)) {
      sink.error(call->loc(), "'func.call' op calls @" + detail::calleeOf(*call) +
                                  ", which is already being called: a recursive call graph "
                                  "cannot be flattened");
      return false;
    }
  detail::SymbolNamer namer;
  std::set<std::string> called;
  // The order is fixed before any copy is made: copies are never visited.
  for (ir::Operation* fn : detail::funcsCalleesFirst(module)) {
    std::vector<ir::Operation*> calls;
    fn->walk([&](ir::Operation& op) {
      if (op.is("func.call"))
        calls.push_back(&op);
    });
    for (ir::Operation* call : calls) {
      const ir::Operation* callee = module.lookupFunction(detail::calleeOf(*call));
      if (!callee || called.insert(std::string(ir::func::name(*callee))).second)
        continue;
      call->setAttr("callee", ir::Attribute::symbolRef(
                                  {detail::cloneFuncRecursively(module, *callee, namer)}));
    }
  }
  return true;
}

bool preOrderFuncs(ir::Module& module, support::DiagnosticSink&) {
  std::vector<ir::Operation*> order = detail::funcsCalleesFirst(module);
  ir::Block& body = module.body();
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    body.push_back(body.take(*it));
  return true;
}

bool propagateShardingFromFuncToCall(ir::Module& module, support::DiagnosticSink&) {
  std::vector<ir::Operation*> calls;
  module.op().walk([&](ir::Operation& op) {
    if (op.is("func.call") && !op.hasAttr("sdy.sharding"))
      calls.push_back(&op);
  });
  for (ir::Operation* call : calls) {
    const ir::Operation* callee = module.lookupFunction(detail::calleeOf(*call));
    if (!callee)
      continue;
    ir::Type fnType = ir::func::type(*callee);
    if (!fnType || fnType.kind() != ir::Type::Kind::Function)
      continue;
    std::span<const ir::Type> results = fnType.results();
    auto resultSharding = [&](size_t i) -> const ir::TensorSharding* {
      const ir::DictionaryAttr* attrs = ir::func::resultAttrs(*callee, static_cast<unsigned>(i));
      const auto* sharding = attrs ? attrs->get("sdy.sharding").as<ir::ShardingAttr>() : nullptr;
      return sharding ? &sharding->sharding : nullptr;
    };
    // The mesh of the first result sharding not on a maximal mesh.
    const ir::TensorSharding* meshSource = nullptr;
    for (size_t i = 0; i < results.size() && !meshSource; ++i)
      if (const ir::TensorSharding* sharding = resultSharding(i)) {
        const ir::Mesh* mesh = ir::resolveMesh(module, *sharding);
        if (mesh && !(mesh->axes.empty() && mesh->deviceIds.size() == 1))
          meshSource = sharding;
      }
    if (!meshSource)
      continue;
    std::vector<ir::TensorSharding> shardings;
    for (size_t i = 0; i < results.size(); ++i) {
      if (const ir::TensorSharding* sharding = resultSharding(i)) {
        shardings.push_back(*sharding);
        continue;
      }
      ir::TensorSharding open;
      open.meshName = meshSource->meshName;
      open.inlineMesh = meshSource->inlineMesh;
      size_t rank = results[i].isTensor() ? static_cast<size_t>(results[i].rank()) : 0;
      open.dims.assign(rank, ir::DimensionSharding{{}, /*isClosed=*/false, std::nullopt});
      shardings.push_back(std::move(open));
    }
    call->setAttr("sdy.sharding", ir::Attribute::shardingPerValue(std::move(shardings)));
  }
  return true;
}

} // namespace shardscope::propagation
