// Export passes after Shardy's close_shardings.cc / sharding_walker.cc (closing),
// remove_sub_axes_in_input_output_shardings.cc and inline_meshes.cc.
#include "core/partition/export_passes.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace shardscope::partition {

namespace {

using ir::Attribute;
using ir::Operation;
using ir::TensorSharding;
using ShardingFn = std::function<TensorSharding(const TensorSharding&)>;

// `attr` with every sharding in it replaced by `fn(sharding)`; null when nothing changed.
Attribute mapShardings(const Attribute& attr, const ShardingFn& fn) {
  if (const auto* s = attr.as<ir::ShardingAttr>()) {
    TensorSharding mapped = fn(s->sharding);
    return mapped == s->sharding ? Attribute() : Attribute::sharding(std::move(mapped));
  }
  if (const auto* list = attr.as<ir::ShardingPerValueAttr>()) {
    std::vector<TensorSharding> mapped;
    mapped.reserve(list->shardings.size());
    bool changed = false;
    for (const TensorSharding& s : list->shardings) {
      mapped.push_back(fn(s));
      changed |= !(mapped.back() == s);
    }
    return changed ? Attribute::shardingPerValue(std::move(mapped)) : Attribute();
  }
  if (const auto* array = attr.as<ir::ArrayAttr>()) {
    std::vector<Attribute> elements = array->elements;
    bool changed = false;
    for (Attribute& element : elements)
      if (Attribute mapped = mapShardings(element, fn)) {
        element = mapped;
        changed = true;
      }
    return changed ? Attribute::array(std::move(elements)) : Attribute();
  }
  if (const auto* dict = attr.as<ir::DictionaryAttr>()) {
    std::vector<ir::NamedAttribute> entries = dict->entries;
    bool changed = false;
    for (ir::NamedAttribute& entry : entries)
      if (Attribute mapped = mapShardings(Attribute(entry.value), fn)) {
        entry.value = mapped.impl();
        changed = true;
      }
    return changed ? Attribute::dictionary(std::move(entries)) : Attribute();
  }
  return Attribute();
}

// The main function: `main`, else the only function. Null when there is neither.
Operation* mainFunction(const ir::Module& module) {
  if (Operation* fn = module.lookupFunction("main"))
    return fn;
  std::vector<Operation*> functions = module.functions();
  return functions.size() == 1 ? functions.front() : nullptr;
}

TensorSharding withoutSubAxesInOpenDims(const TensorSharding& sharding) {
  TensorSharding out = sharding;
  for (ir::DimensionSharding& dim : out.dims) {
    if (dim.isClosed)
      continue;
    auto firstSub = std::find_if(dim.axes.begin(), dim.axes.end(),
                                 [](const ir::AxisRef& axis) { return axis.subAxis.has_value(); });
    dim.axes.erase(firstSub, dim.axes.end());
  }
  return out;
}

// Shardy's `getClosedLike` as the export pipeline needs it: closed dimensions, no replicated
// axes, unreduced axes kept.
TensorSharding closedKeepingUnreduced(const TensorSharding& sharding) {
  TensorSharding closed = sharding;
  for (ir::DimensionSharding& dim : closed.dims)
    dim.isClosed = true;
  closed.replicatedAxes.clear();
  return closed;
}

} // namespace

void transformShardings(ir::Module& module, const ShardingFn& fn) {
  module.op().walk([&](Operation& op) {
    // Names first: setAttr replaces values in place, but the loop must not hold references.
    std::vector<std::string> names;
    for (const ir::NamedAttribute& a : op.attributes())
      names.push_back(a.name);
    for (const std::string& name : names)
      if (Attribute mapped = mapShardings(op.attr(name), fn))
        op.setAttr(name, mapped);
  });
}

bool closeShardingsKeepingUnreduced(ir::Module& module, support::DiagnosticSink&) {
  transformShardings(module, closedKeepingUnreduced);
  return true;
}

bool removeSubAxesInInputOutputShardings(ir::Module& module, support::DiagnosticSink&) {
  Operation* fn = mainFunction(module);
  if (!fn)
    return true;
  ir::Type type = ir::func::type(*fn);
  for (unsigned i = 0; i < type.elements().size(); ++i) {
    const ir::DictionaryAttr* attrs = ir::func::argAttrs(*fn, i);
    if (const auto* s = attrs ? attrs->get("sdy.sharding").as<ir::ShardingAttr>() : nullptr)
      if (TensorSharding cut = withoutSubAxesInOpenDims(s->sharding); !(cut == s->sharding))
        ir::func::setArgAttr(*fn, i, "sdy.sharding", Attribute::sharding(std::move(cut)));
  }
  for (unsigned i = 0; i < type.results().size(); ++i) {
    const ir::DictionaryAttr* attrs = ir::func::resultAttrs(*fn, i);
    if (const auto* s = attrs ? attrs->get("sdy.sharding").as<ir::ShardingAttr>() : nullptr)
      if (TensorSharding cut = withoutSubAxesInOpenDims(s->sharding); !(cut == s->sharding))
        ir::func::setResultAttr(*fn, i, "sdy.sharding", Attribute::sharding(std::move(cut)));
  }
  return true;
}

bool inlineMeshes(ir::Module& module, support::DiagnosticSink&) {
  // One shared inline mesh per symbol, so equal shardings stay cheap to compare.
  std::vector<std::pair<std::string, std::shared_ptr<const ir::Mesh>>> meshes;
  std::vector<Operation*> meshOps;
  for (auto& op : module.body().ops()) {
    if (!op->is("sdy.mesh"))
      continue;
    const auto* name = op->attr("sym_name").as<ir::StringAttr>();
    const auto* mesh = op->attr("mesh").as<ir::MeshAttr>();
    if (!name || !mesh)
      continue;
    meshes.emplace_back(name->value, std::make_shared<const ir::Mesh>(mesh->mesh));
    meshOps.push_back(op.get());
  }
  transformShardings(module, [&](const TensorSharding& sharding) {
    if (sharding.inlineMesh)
      return sharding;
    for (const auto& [name, mesh] : meshes)
      if (name == sharding.meshName) {
        TensorSharding out = sharding;
        out.meshName.clear();
        out.inlineMesh = mesh;
        return out;
      }
    return sharding;
  });
  for (Operation* op : meshOps)
    module.body().erase(op);
  return true;
}

} // namespace shardscope::partition
