#include "core/import/round_trip/unflatten_call_graph.h"

#include "core/import/round_trip/round_trip_constants.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace shardscope::import_ {

namespace {

constexpr std::string_view kOriginalFuncNameAttr = "sdy.original_func_name";

// The sharding attribute of each argument (or result), printed; empty for none.
std::vector<std::string> printedShardings(const ir::Operation& fn, bool results) {
  ir::Type type = ir::func::type(fn);
  size_t count = results ? type.results().size() : type.elements().size();
  std::vector<std::string> out;
  for (unsigned i = 0; i < count; ++i) {
    const ir::DictionaryAttr* attrs =
        results ? ir::func::resultAttrs(fn, i) : ir::func::argAttrs(fn, i);
    ir::Attribute sharding = attrs ? attrs->get("sdy.sharding") : ir::Attribute();
    out.push_back(sharding ? sharding.str() : std::string());
  }
  return out;
}

using Key = std::tuple<std::string, std::string, std::vector<std::string>,
                       std::vector<std::string>>;

Key keyOf(const ir::Operation& fn, bool ignoreShardings) {
  std::string name(ir::func::name(fn));
  if (const auto* original = fn.attr(kOriginalFuncNameAttr).as<ir::StringAttr>())
    name = original->value;
  std::string manualAxes;
  if (ir::Attribute axes = fn.attr(kManualAxesAttr))
    manualAxes = axes.str();
  if (ignoreShardings)
    return {name, manualAxes, {}, {}};
  return {name, manualAxes, printedShardings(fn, false), printedShardings(fn, true)};
}

const ir::SymbolRefAttr* calleeOf(const ir::Operation& call) {
  return call.is("func.call") ? call.attr("callee").as<ir::SymbolRefAttr>() : nullptr;
}

std::vector<ir::Operation*> callsOf(ir::Module& module) {
  std::vector<ir::Operation*> calls;
  module.op().walk([&](ir::Operation& op) {
    const auto* callee = calleeOf(op);
    if (!callee || callee->path.size() != 1 ||
        callee->path[0].find(kInlinableManualComputationBodyFuncName) != std::string::npos ||
        !module.lookupFunction(callee->path[0]))
      return;
    calls.push_back(&op);
  });
  return calls;
}

const ir::TensorSharding* shardingAt(const ir::DictionaryAttr* attrs) {
  if (!attrs)
    return nullptr;
  // The dictionary owns the attribute, so the pointer stays valid while it lives.
  for (const auto& entry : attrs->entries)
    if (entry.name == "sdy.sharding" && entry.value->kind == ir::Attribute::Kind::Sharding)
      return &static_cast<const ir::ShardingAttr*>(entry.value.get())->sharding;
  return nullptr;
}

ir::Operation* copyWithSharding(ir::Value& value, const ir::TensorSharding& sharding,
                                ir::Operation& before) {
  ir::Value* operands[] = {&value};
  ir::Type types[] = {value.type()};
  auto copy = ir::Operation::create("mhlo.copy", operands, types, before.loc());
  copy->setAttr("sdy.sharding", ir::Attribute::shardingPerValue({sharding}));
  // A copy for a call inside a manual computation carries the call's manual axes.
  if (ir::Attribute manualAxes = before.attr(kManualAxesAttr))
    copy->setAttr(kManualAxesAttr, manualAxes);
  return before.parentBlock()->insertBefore(&before, std::move(copy));
}

// The sharding of `value` as the ops using it see it: inside a manual computation, a body
// argument's sharding without the manual axes.
// As Shardy's `getSharding`, a manual computation's result has its out sharding and a body
// argument its in sharding.
const ir::TensorSharding* shardingWithManualComputations(const ir::Value& value) {
  if (const ir::TensorSharding* sharding = ir::shardingOf(value))
    return sharding;
  const ir::Operation* op =
      value.isBlockArgument() ? value.ownerBlock()->parentOp() : value.definingOp();
  if (!op || !op->is("sdy.manual_computation"))
    return nullptr;
  const auto* shardings =
      op->attr(value.isBlockArgument() ? "in_shardings" : "out_shardings")
          .as<ir::ShardingPerValueAttr>();
  if (!shardings || value.index() >= shardings->shardings.size())
    return nullptr;
  return &shardings->shardings[value.index()];
}

std::optional<ir::TensorSharding> localSharding(const ir::Value& value) {
  const ir::TensorSharding* sharding = shardingWithManualComputations(value);
  if (!sharding)
    return std::nullopt;
  const ir::Operation* owner = value.isBlockArgument() ? value.ownerBlock()->parentOp() : nullptr;
  const auto* manual = owner && owner->is("sdy.manual_computation")
                           ? owner->attr("manual_axes").as<ir::ManualAxesAttr>()
                           : nullptr;
  ir::TensorSharding local = *sharding;
  if (!manual)
    return local;
  auto isManual = [&](const ir::AxisRef& axis) {
    return std::find(manual->axes.begin(), manual->axes.end(), axis.name) != manual->axes.end();
  };
  for (auto& dim : local.dims)
    std::erase_if(dim.axes, isManual);
  std::erase_if(local.replicatedAxes, isManual);
  return local;
}

void insertArgumentCopies(const ir::Operation& fn, ir::Operation& call) {
  for (unsigned i = 0; i < call.numOperands(); ++i) {
    const ir::TensorSharding* expected = shardingAt(ir::func::argAttrs(fn, i));
    if (!expected)
      continue;
    // An operand without a sharding of its own gets none imposed.
    std::optional<ir::TensorSharding> actual = localSharding(*call.operand(i));
    if (!actual || *actual == *expected)
      continue;
    call.setOperand(i, copyWithSharding(*call.operand(i), *expected, call)->result(0));
  }
}

void insertResultCopies(const ir::Operation& fn, const ir::Operation& original,
                        ir::Operation& call, bool dedupFunctionsFully) {
  const auto* callShardings = call.attr("sdy.sharding").as<ir::ShardingPerValueAttr>();
  std::vector<ir::TensorSharding> updated;
  bool changed = false;
  for (unsigned i = 0; i < call.numResults(); ++i) {
    const ir::TensorSharding* kept = shardingAt(ir::func::resultAttrs(fn, i));
    const ir::TensorSharding* had = callShardings && i < callShardings->shardings.size()
                                        ? &callShardings->shardings[i]
                                        : shardingAt(ir::func::resultAttrs(original, i));
    // A kept function without a result sharding returns a closed, replicated value.
    ir::TensorSharding closedReplicated;
    if (!kept && had && dedupFunctionsFully) {
      closedReplicated.meshName = had->meshName;
      closedReplicated.inlineMesh = had->inlineMesh;
      closedReplicated.dims.assign(had->dims.size(), ir::DimensionSharding{});
      kept = &closedReplicated;
    }
    if (kept)
      updated.push_back(*kept);
    else if (had)
      updated.push_back(*had);
    if (!kept || !had || *kept == *had)
      continue;
    changed = true;
    ir::Value* result = call.result(i);
    std::vector<ir::Use> uses = result->uses();
    ir::Block* block = call.parentBlock();
    ir::Value* operands[] = {result};
    ir::Type types[] = {result->type()};
    auto copy = ir::Operation::create("mhlo.copy", operands, types, call.loc());
    copy->setAttr("sdy.sharding", ir::Attribute::shardingPerValue({*had}));
    if (ir::Attribute manualAxes = call.attr(kManualAxesAttr))
      copy->setAttr(kManualAxesAttr, manualAxes);
    auto it = block->ops().begin();
    while (it->get() != &call)
      ++it;
    ++it;
    ir::Operation* inserted =
        block->insertBefore(it == block->ops().end() ? nullptr : it->get(), std::move(copy));
    for (const ir::Use& use : uses)
      use.user->setOperand(use.index, inserted->result(0));
  }
  if (changed && updated.size() == call.numResults())
    call.setAttr("sdy.sharding", ir::Attribute::shardingPerValue(std::move(updated)));
}

} // namespace

bool unflattenCallGraph(ir::Module& module, bool dedupFunctionsFully,
                        support::DiagnosticSink& /*sink*/) {
  std::vector<ir::Operation*> calls = callsOf(module);
  auto calleeFn = [&](const ir::Operation& call) {
    return module.lookupFunction(calleeOf(call)->path[0]);
  };
  std::map<Key, ir::Operation*> kept;
  for (ir::Operation* call : calls) {
    ir::Operation* fn = calleeFn(*call);
    kept.try_emplace(keyOf(*fn, dedupFunctionsFully), fn);
  }
  if (dedupFunctionsFully) {
    // Keep, for each origin, the function with the most calls.
    std::map<Key, int> callCounts;
    for (ir::Operation* call : calls) {
      ir::Operation* fn = calleeFn(*call);
      Key full = keyOf(*fn, false);
      ++callCounts[full];
      ir::Operation*& cached = kept[keyOf(*fn, true)];
      if (callCounts[full] > callCounts[keyOf(*cached, false)])
        cached = fn;
    }
  }
  for (ir::Operation* call : calls) {
    ir::Operation* original = calleeFn(*call);
    ir::Operation* fn = kept[keyOf(*original, dedupFunctionsFully)];
    call->setAttr("callee", ir::Attribute::symbolRef({std::string(ir::func::name(*fn))}));
    insertArgumentCopies(*fn, *call);
    insertResultCopies(*fn, *original, *call, dedupFunctionsFully);
  }
  // XLA drops the origin and the manual axes from the functions only; calls keep their manual
  // axes.
  for (ir::Operation* fn : module.functions()) {
    fn->removeAttr(kOriginalFuncNameAttr);
    fn->removeAttr(kManualAxesAttr);
  }
  return true;
}

} // namespace shardscope::import_
