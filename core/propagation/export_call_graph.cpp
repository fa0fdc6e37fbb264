// Shardy's named-computation export and call-graph unflattening (export_named_computations.cc,
// unflatten_call_graph.cc), on the calls the propagation left in place.
#include "core/propagation/export_call_graph.h"

#include "core/propagation/detail/func_clone.h"
#include "core/propagation/import_pipeline.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace shardscope::propagation {

namespace {

using ir::Operation;

constexpr std::string_view kOriginalName = "sdy.original_func_name";

std::vector<Operation*> callsIn(Operation& scope) {
  std::vector<Operation*> calls;
  scope.walk([&](Operation& op) {
    if (op.is("func.call"))
      calls.push_back(&op);
  });
  return calls;
}

// One exported call: the call and the function it calls, in export order.
struct Export {
  Operation* call = nullptr;
  Operation* callee = nullptr;
};

// The post-order of the named computations: the calls in a callee's body are exported before the
// call of that callee.
void collectExports(const ir::Module& module, Operation& scope, std::set<const Operation*>& seen,
                    std::vector<Export>& out) {
  for (Operation* call : callsIn(scope)) {
    Operation* callee = module.lookupFunction(detail::calleeOf(*call));
    if (!callee || !seen.insert(callee).second)
      continue;
    collectExports(module, *callee, seen, out);
    out.push_back({call, callee});
  }
}

void rename(Operation& fn, Operation& call, const std::string& name) {
  fn.setAttr("sym_name", ir::Attribute::string(name));
  call.setAttr("callee", ir::Attribute::symbolRef({name}));
}

// What `-sdy-unflatten-call-graph` compares: the original name, the function's manual axes and
// the argument and result shardings.
struct ComputationKey {
  std::string name;
  std::optional<std::vector<std::string>> manualAxes;
  std::vector<std::optional<ir::TensorSharding>> args, results;
  bool operator==(const ComputationKey&) const = default;
};

std::optional<ir::TensorSharding> shardingIn(const ir::DictionaryAttr* attrs) {
  const auto* sharding = attrs ? attrs->get("sdy.sharding").as<ir::ShardingAttr>() : nullptr;
  return sharding ? std::optional<ir::TensorSharding>(sharding->sharding) : std::nullopt;
}

ComputationKey keyOf(const Operation& fn) {
  ComputationKey key{detail::originalFuncName(fn), std::nullopt, {}, {}};
  if (const auto* manual = fn.attr("sdy.manual_axes").as<ir::ManualAxesAttr>())
    key.manualAxes = manual->axes;
  ir::Type type = ir::func::type(fn);
  if (type && type.kind() == ir::Type::Kind::Function) {
    for (unsigned i = 0; i < type.elements().size(); ++i)
      key.args.push_back(shardingIn(ir::func::argAttrs(fn, i)));
    for (unsigned i = 0; i < type.results().size(); ++i)
      key.results.push_back(shardingIn(ir::func::resultAttrs(fn, i)));
  }
  return key;
}

} // namespace

bool exportFlattenedCallGraph(ir::Module& module, support::DiagnosticSink& sink) {
  // Every function must be called at most once, else there is nothing Shardy would have exported.
  std::map<std::string, int> callCount;
  for (Operation* fn : module.functions())
    for (Operation* call : callsIn(*fn))
      if (module.lookupFunction(detail::calleeOf(*call)) &&
          ++callCount[detail::calleeOf(*call)] > 1)
        return true;
  if (callCount.empty())
    return true;

  // Import: the callees disappear; what is left (functions no call reaches) keeps its place.
  std::vector<Export> exports;
  std::set<const Operation*> seen;
  std::set<std::string> taken;
  for (Operation* fn : module.functions())
    if (!callCount.count(std::string(ir::func::name(*fn))))
      taken.insert(std::string(ir::func::name(*fn)));
  for (const auto& op : module.body().ops())
    if (op->is("sdy.mesh"))
      if (const auto* name = op->attr("sym_name").as<ir::StringAttr>())
        taken.insert(name->value);
  for (Operation* fn : module.functions())
    if (!callCount.count(std::string(ir::func::name(*fn))))
      collectExports(module, *fn, seen, exports);

  // Export: names as `SymbolTable::insert` makes them unique, functions appended in that order.
  unsigned counter = 0;
  std::vector<std::string> names;
  for (const Export& e : exports) {
    std::string original = detail::originalFuncName(*e.callee);
    std::string name = original;
    while (taken.count(name))
      name = original + "_" + std::to_string(counter++);
    taken.insert(name);
    names.push_back(name);
    e.callee->setAttr(kOriginalName, ir::Attribute::string(original));
  }
  for (size_t i = 0; i < exports.size(); ++i) // free the final names first
    rename(*exports[i].callee, *exports[i].call, "\x01shardscope.export." + std::to_string(i));
  ir::Block& body = module.body();
  for (size_t i = 0; i < exports.size(); ++i) {
    rename(*exports[i].callee, *exports[i].call, names[i]);
    exports[i].callee->setAttr("sym_visibility", ir::Attribute::string("private"));
    body.push_back(body.take(exports[i].callee));
  }

  // Unflatten: the first function of each key, in the order the calls appear, serves them all.
  std::vector<std::pair<ComputationKey, std::string>> cache;
  std::vector<Operation*> calls;
  for (Operation* fn : module.functions())
    for (Operation* call : callsIn(*fn))
      calls.push_back(call);
  for (Operation* call : calls) {
    const Operation* callee = module.lookupFunction(detail::calleeOf(*call));
    if (!callee)
      continue;
    ComputationKey key = keyOf(*callee);
    auto it = std::find_if(cache.begin(), cache.end(),
                           [&](const auto& entry) { return entry.first == key; });
    if (it == cache.end())
      cache.emplace_back(std::move(key), detail::calleeOf(*call));
    else
      call->setAttr("callee", ir::Attribute::symbolRef({it->second}));
  }
  for (Operation* fn : module.functions())
    fn->removeAttr(kOriginalName);
  return eraseDeadSymbols(module, sink);
}

} // namespace shardscope::propagation
