// `-sdy-import-pipeline`, after Shardy's import_pipeline.cc, and the symbol DCE it starts with.
#include "core/propagation/import_pipeline.h"

#include "core/propagation/import_apply_sharding_constraints.h"
#include "core/propagation/import_data_flow_edges.h"
#include "core/propagation/import_manual_axes_cleanup.h"
#include "core/propagation/import_sharding_groups.h"

#include <set>

namespace shardscope::propagation {

namespace {

using ir::Attribute;
using ir::Operation;

// Looks at the attribute storage directly: this runs on every attribute of every op, and
// wrapping each in an `Attribute` would copy (and count) its shared pointer.
void collectSymbolRefs(const ir::AttrStorage* attr, std::set<std::string>& names) {
  if (!attr)
    return;
  switch (attr->kind) {
  case Attribute::Kind::SymbolRef:
    if (const auto& path = static_cast<const ir::SymbolRefAttr*>(attr)->path; !path.empty())
      names.insert(path.front());
    break;
  case Attribute::Kind::Array:
    for (const Attribute& element : static_cast<const ir::ArrayAttr*>(attr)->elements)
      collectSymbolRefs(element.impl().get(), names);
    break;
  case Attribute::Kind::Dictionary:
    for (const ir::NamedAttribute& entry : static_cast<const ir::DictionaryAttr*>(attr)->entries)
      collectSymbolRefs(entry.value.get(), names);
    break;
  default:
    break;
  }
}

bool isPrivate(const Operation& fn) {
  const auto* visibility = fn.attr("sym_visibility").as<ir::StringAttr>();
  return visibility && visibility->value != "public";
}

// Functions reachable from the public ones through symbol references.
std::set<std::string> liveFunctions(const ir::Module& module) {
  std::set<std::string> live;
  std::vector<const Operation*> worklist;
  for (Operation* fn : module.functions())
    if (!isPrivate(*fn) && live.insert(std::string(ir::func::name(*fn))).second)
      worklist.push_back(fn);
  while (!worklist.empty()) {
    const Operation* fn = worklist.back();
    worklist.pop_back();
    std::set<std::string> refs;
    fn->walk([&](const Operation& op) {
      if (&op != fn)
        for (const ir::NamedAttribute& a : op.attributes())
          collectSymbolRefs(a.value.get(), refs);
    });
    for (const std::string& name : refs)
      if (Operation* callee = module.lookupFunction(name); callee && live.insert(name).second)
        worklist.push_back(callee);
  }
  return live;
}

} // namespace

bool eraseDeadSymbols(ir::Module& module, support::DiagnosticSink&) {
  std::set<std::string> live = liveFunctions(module);
  for (Operation* fn : module.functions())
    if (!live.count(std::string(ir::func::name(*fn)))) {
      fn->walk([](Operation& op) { op.dropAllReferences(); });
      module.body().erase(fn);
    }
  return true;
}

bool runImportPipeline(ir::Module& module, const ImportOptions&, support::DiagnosticSink& sink) {
  // Manual axes are cleaned up before data-flow edges copy the in/out shardings, and sharding
  // constraints are applied before sharding groups are imported, so that conflicts between group
  // members with pre-propagation shardings can be detected.
  using Step = bool (*)(ir::Module&, support::DiagnosticSink&);
  for (Step step : {eraseDeadSymbols, cleanupManualAxes, addDataFlowEdges, applyShardingConstraints,
                    importShardingGroups})
    if (!step(module, sink))
      return false;
  return true;
}

} // namespace shardscope::propagation
