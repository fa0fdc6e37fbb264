#include "core/import/round_trip/import_func_calls.h"

#include "core/import/common/op_rewrite.h"
#include "core/import/round_trip/round_trip_constants.h"
#include "core/propagation/import_pipeline.h"

#include <string>
#include <vector>

namespace shardscope::import_ {

namespace {

ir::Operation* calledFunction(ir::Module& module, const ir::Operation& op) {
  const auto* callee = op.is("func.call") ? op.attr("callee").as<ir::SymbolRefAttr>() : nullptr;
  if (!callee || callee->path.size() != 1 ||
      callee->path[0].find(kManualComputationBodyFuncName) != std::string::npos ||
      callee->path[0].find(kInlinableManualComputationBodyFuncName) != std::string::npos)
    return nullptr;
  ir::Operation* fn = module.lookupFunction(callee->path[0]);
  return fn && ir::func::body(*fn) ? fn : nullptr;
}

// The `sdy.sharding`s of the arguments (or results) of `fn`; null when none has one.
ir::Attribute shardingsOf(const ir::Operation& fn, bool results) {
  ir::Type type = ir::func::type(fn);
  size_t count = results ? type.results().size() : type.elements().size();
  std::vector<ir::TensorSharding> shardings;
  for (unsigned i = 0; i < count; ++i) {
    const ir::DictionaryAttr* attrs =
        results ? ir::func::resultAttrs(fn, i) : ir::func::argAttrs(fn, i);
    const auto* sharding = attrs ? attrs->get("sdy.sharding").as<ir::ShardingAttr>() : nullptr;
    if (!sharding)
      return {};
    shardings.push_back(sharding->sharding);
  }
  return shardings.empty() ? ir::Attribute() : ir::Attribute::shardingPerValue(shardings);
}

// Replaces `call` of `fn` by a named computation holding a copy of `fn`'s body; returns the calls
// in the copy.
std::vector<ir::Operation*> importCall(ir::Module& module, ir::Operation& call, ir::Operation& fn) {
  std::string name(ir::func::name(fn));
  if (const auto* original = fn.attr("sdy.original_func_name").as<ir::StringAttr>())
    name = original->value;
  std::vector<ir::Type> results;
  for (const auto& result : call.results())
    results.push_back(result->type());
  auto named = ir::Operation::create("sdy.named_computation", call.operands(), results, call.loc());
  named->setAttr("name", ir::Attribute::string(name));
  named->setInherent("name", true);
  for (bool out : {false, true})
    if (ir::Attribute shardings = shardingsOf(fn, out)) {
      named->setAttr(out ? "out_shardings" : "in_shardings", shardings);
      named->setInherent(out ? "out_shardings" : "in_shardings", true);
    }
  ir::Block& body = named->addRegion().front();
  ir::Operation::ValueMapping mapping;
  const ir::Block& from = *ir::func::body(fn);
  for (unsigned i = 0; i < from.numArguments(); ++i)
    mapping[from.argument(i)] = body.addArgument(from.argument(i)->type());
  std::vector<ir::Operation*> nestedCalls;
  for (const auto& op : from.ops()) {
    if (op->is("func.return")) {
      std::vector<ir::Value*> values;
      for (ir::Value* v : op->operands())
        values.push_back(mapping.count(v) ? mapping[v] : v);
      body.push_back(ir::Operation::create("sdy.return", values, {}, op->loc()));
      continue;
    }
    ir::Operation* copy = body.push_back(op->clone(mapping));
    copy->walk([&](ir::Operation& nested) {
      if (calledFunction(module, nested))
        nestedCalls.push_back(&nested);
    });
  }
  replaceOp(call, std::move(named));
  return nestedCalls;
}

} // namespace

bool importFuncCalls(ir::Module& module, support::DiagnosticSink& sink) {
  std::vector<ir::Operation*> work;
  for (ir::Operation* fn : module.functions())
    if (!fn->hasAttr("sym_visibility"))
      fn->walk([&](ir::Operation& op) {
        if (calledFunction(module, op))
          work.push_back(&op);
      });
  while (!work.empty()) {
    ir::Operation* call = work.back();
    work.pop_back();
    ir::Operation* fn = calledFunction(module, *call);
    std::vector<ir::Operation*> nested = importCall(module, *call, *fn);
    work.insert(work.end(), nested.begin(), nested.end());
  }
  return propagation::eraseDeadSymbols(module, sink);
}

} // namespace shardscope::import_
