// Shardy's constant splitting before propagation and merging after it.
#include "core/propagation/import_constant_splitter.h"

#include "core/propagation/detail/func_clone.h"
#include "core/propagation/propagate_aggressive.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace shardscope::propagation {

using detail::calleeOf;
using detail::cloneFuncRecursively;
using detail::funcsCalleesFirst;
using detail::originalFuncName;
using detail::SymbolNamer;
using ir::Operation;
using ir::Value;

namespace {

bool isScalar(const Value& value) {
  ir::Type type = value.type();
  return type && type.isTensor() && type.rank() == 0;
}

bool isTerminator(const Operation& op) {
  return op.is("func.return") || op.is("stablehlo.return") || op.is("sdy.return") ||
         op.is("mhlo.return");
}

std::string_view namedComputationName(const Operation& op) {
  const auto* name = op.attr("name").as<ir::StringAttr>();
  return name ? std::string_view(name->value) : std::string_view();
}

// What the splitter knows while it walks one region.
struct SplitState {
  ir::Module* module = nullptr;
  SymbolNamer* namer = nullptr;
  std::set<std::string> nonConstantFuncs;
  std::set<std::string, std::less<>> nonConstantNamedComputations;
  std::vector<Operation*> constantOps; // in walk order
  std::set<const Operation*> constantSet;
  std::vector<Operation*> scalarExpansionOps;
  std::set<const Operation*> scalarExpansionSet;
};

// An op that maps constant operands to constant results: broadcasts, reshapes, slices and
// element-wise ops, and named computations and calls whose bodies are all such ops.
bool isConstantPreserving(const Operation& op, const SplitState& state) {
  if (op.is("func.call")) {
    const Operation* callee = state.module->lookupFunction(calleeOf(op));
    return callee && !state.nonConstantFuncs.count(originalFuncName(*callee));
  }
  if (op.is("sdy.named_computation"))
    return !state.nonConstantNamedComputations.count(namedComputationName(op));
  if (op.is("stablehlo.broadcast_in_dim") || op.is("stablehlo.reshape") ||
      op.is("stablehlo.slice"))
    return true;
  return isElementwise(op);
}

bool isConstantExpression(const Operation& op, const SplitState& state) {
  if (op.is("sdy.constant") || op.is("stablehlo.iota"))
    return true;
  if (!isConstantPreserving(op, state))
    return false;
  return std::all_of(op.operands().begin(), op.operands().end(), [&](const Value* operand) {
    return operand->definingOp() && state.constantSet.count(operand->definingOp());
  });
}

bool isScalarExpansion(const Operation& op) {
  return op.is("stablehlo.broadcast_in_dim") && op.numOperands() == 1 &&
         isScalar(*op.operand(0));
}

// Copies the sub-computation defining `result` (operands first) right before its root op,
// together with the sharding groups the copied values belong to. Values already copied are in
// `mapping`.
void cloneSubComputation(const Value& result, Operation::ValueMapping& mapping,
                         SplitState& state) {
  if (isScalar(result) || mapping.count(&result))
    return;
  Operation* op = result.definingOp();
  for (const Value* operand : op->operands())
    if (operand->definingOp())
      cloneSubComputation(*operand, mapping, state);
  ir::Block* block = op->parentBlock();
  Operation* copy = block->insertBefore(op, op->clone(mapping));
  // A copied call calls its own copy of the callee.
  if (copy->is("func.call"))
    if (const Operation* callee = state.module->lookupFunction(calleeOf(*copy)))
      copy->setAttr("callee",
                    ir::Attribute::symbolRef({cloneFuncRecursively(*state.module, *callee,
                                                                   *state.namer)}));
  std::vector<Operation*> groups;
  for (const ir::Use& use : result.uses())
    if (use.user->is("sdy.sharding_group"))
      groups.push_back(use.user);
  for (Operation* group : groups)
    block->insertBefore(op, group->clone(mapping));
}

Value* cloneSubComputation(Value& result, SplitState& state) {
  if (isScalar(result))
    return &result;
  Operation::ValueMapping mapping;
  cloneSubComputation(result, mapping, state);
  return mapping.at(&result);
}

void processOp(Operation& op, const std::string& funcName, SplitState& state) {
  if (op.is("func.func") || op.is("sdy.sharding_group"))
    return;
  if (isConstantExpression(op, state)) {
    state.constantOps.push_back(&op);
    state.constantSet.insert(&op);
    return;
  }
  if (!isConstantPreserving(op, state) && !isTerminator(op)) {
    if (const Operation* named = op.parentOfName("sdy.named_computation"))
      state.nonConstantNamedComputations.insert(std::string(namedComputationName(*named)));
    state.nonConstantFuncs.insert(funcName);
  }
  if (isScalarExpansion(op)) {
    state.scalarExpansionOps.push_back(&op);
    state.scalarExpansionSet.insert(&op);
    return;
  }
  // A non-constant use of a constant value gets its own copy of the constant sub-computation.
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    Value* operand = op.operand(i);
    Operation* def = operand->definingOp();
    if (def && (state.constantSet.count(def) || state.scalarExpansionSet.count(def)))
      op.setOperand(i, cloneSubComputation(*operand, state));
  }
}

// Pre-order over the ops of `region`, not entering named computations (walked on their own).
template <typename Fn> void walkSkippingNamed(ir::Region& region, Fn&& fn) {
  for (auto& block : region.blocks()) {
    std::vector<Operation*> ops;
    for (auto& op : block->ops())
      ops.push_back(op.get());
    for (Operation* op : ops) {
      fn(*op);
      if (op->is("sdy.named_computation"))
        continue;
      for (unsigned r = 0; r < op->numRegions(); ++r)
        walkSkippingNamed(op->region(r), fn);
    }
  }
}

bool onlyShardingGroupUsers(const Operation& op) {
  for (const auto& result : op.results())
    for (const ir::Use& use : result->uses())
      if (!use.user->is("sdy.sharding_group"))
        return false;
  return true;
}

void eraseWithGroupUsers(Operation& op) {
  std::vector<Operation*> users;
  for (const auto& result : op.results())
    for (const ir::Use& use : result->uses())
      if (std::find(users.begin(), users.end(), use.user) == users.end())
        users.push_back(use.user);
  for (Operation* user : users) {
    user->dropAllReferences();
    user->parentBlock()->erase(user);
  }
  op.dropAllReferences();
  op.parentBlock()->erase(&op);
}

void splitRegion(ir::Region& region, const std::string& funcName, SplitState& shared) {
  SplitState state;
  state.module = shared.module;
  state.namer = shared.namer;
  state.nonConstantFuncs = std::move(shared.nonConstantFuncs);
  state.nonConstantNamedComputations = std::move(shared.nonConstantNamedComputations);
  walkSkippingNamed(region, [&](Operation& op) { processOp(op, funcName, state); });
  // Every use outside the constant sub-computations now has its own copy; the originals go when
  // nothing else uses them, users before their operands.
  std::vector<Operation*> toErase = state.scalarExpansionOps;
  toErase.insert(toErase.end(), state.constantOps.rbegin(), state.constantOps.rend());
  for (Operation* op : toErase)
    if (onlyShardingGroupUsers(*op))
      eraseWithGroupUsers(*op);
  shared.nonConstantFuncs = std::move(state.nonConstantFuncs);
  shared.nonConstantNamedComputations = std::move(state.nonConstantNamedComputations);
}

void convertConstants(ir::Module& module) {
  std::vector<Operation*> constants;
  module.op().walk([&](Operation& op) {
    if (op.is("stablehlo.constant"))
      constants.push_back(&op);
  });
  for (Operation* op : constants) {
    std::vector<ir::Type> types;
    for (const auto& result : op->results())
      types.push_back(result->type());
    auto constant = Operation::create("sdy.constant", {}, types, op->loc());
    constant->setDebugLoc(op->debugLoc());
    for (const ir::NamedAttribute& attr : op->attributes()) {
      constant->setAttr(attr.name, ir::Attribute(attr.value));
      constant->setInherent(attr.name, op->isInherent(attr.name));
    }
    ir::Block* block = op->parentBlock();
    Operation* inserted = block->insertBefore(op, std::move(constant));
    for (unsigned i = 0; i < op->numResults(); ++i) {
      inserted->result(i)->setNameHint(op->result(i)->nameHint());
      op->result(i)->replaceAllUsesWith(inserted->result(i));
    }
    op->dropAllReferences();
    block->erase(op);
  }
}

// The attributes of `op` as one comparable text (MLIR's attribute dictionary).
std::string attrKey(const Operation& op) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (const ir::NamedAttribute& attr : op.attributes())
    entries.emplace_back(attr.name, ir::Attribute(attr.value).str());
  std::sort(entries.begin(), entries.end());
  std::string key;
  for (const auto& [name, value] : entries)
    key += name + "=" + value + ";";
  return key;
}


void collectNamedPostOrder(Operation& op, std::vector<Operation*>& out) {
  for (unsigned r = 0; r < op.numRegions(); ++r)
    for (auto& block : op.region(r).blocks())
      for (auto& nested : block->ops())
        collectNamedPostOrder(*nested, out);
  if (op.is("sdy.named_computation"))
    out.push_back(&op);
}

} // namespace

bool splitConstants(ir::Module& module, support::DiagnosticSink&) {
  convertConstants(module);
  SymbolNamer namer;
  SplitState shared;
  shared.module = &module;
  shared.namer = &namer;
  for (Operation* fn : funcsCalleesFirst(module)) {
    if (fn->numRegions() == 0 || fn->region(0).empty())
      continue;
    std::string name = originalFuncName(*fn);
    // MLIR's default walk is post-order: inner named computations before the ones holding them.
    std::vector<Operation*> named;
    collectNamedPostOrder(*fn, named);
    for (Operation* op : named)
      splitRegion(op->region(0), name, shared);
    splitRegion(fn->region(0), name, shared);
  }
  return true;
}

bool mergeConstants(ir::Module& module, support::DiagnosticSink&) {
  for (Operation* fn : module.functions()) {
    std::map<std::pair<std::string, const ir::Region*>, Operation*> constants;
    std::map<std::tuple<std::string, const ir::Region*, std::string, const Value*>, Operation*>
        broadcasts;
    std::vector<std::pair<Operation*, Operation*>> replacements;
    // A broadcast of a merged scalar is keyed by the scalar that stays.
    std::map<const Value*, const Value*> mergedInto;
    auto resolved = [&](const Value* value) {
      auto it = mergedInto.find(value);
      return it == mergedInto.end() ? value : it->second;
    };
    fn->walk([&](Operation& op) {
      const ir::Region* region = op.parentBlock() ? op.parentBlock()->parentRegion() : nullptr;
      Operation* cached = nullptr;
      if (op.is("sdy.constant") || op.is("stablehlo.constant")) {
        auto [it, inserted] = constants.try_emplace({attrKey(op), region}, &op);
        cached = inserted ? nullptr : it->second;
      } else if (isScalarExpansion(op)) {
        auto [it, inserted] = broadcasts.try_emplace(
            {attrKey(op), region, op.result(0)->type().str(), resolved(op.operand(0))}, &op);
        cached = inserted ? nullptr : it->second;
      }
      if (!cached)
        return;
      replacements.emplace_back(&op, cached);
      for (unsigned i = 0; i < op.numResults(); ++i)
        mergedInto[op.result(i)] = cached->result(i);
    });
    for (auto [op, kept] : replacements) {
      for (unsigned i = 0; i < op->numResults(); ++i)
        op->result(i)->replaceAllUsesWith(kept->result(i));
      op->dropAllReferences();
      op->parentBlock()->erase(op);
    }
  }
  return true;
}

} // namespace shardscope::propagation
