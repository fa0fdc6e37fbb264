// `-canonicalize`: MLIR's canonicalizer (a greedy pattern rewrite driver) with Shardy's
// canonicalization patterns, restricted to what matters for StableHLO + Shardy programs.
//
// The driver follows `GreedyPatternRewriteDriver` closely because the printed output must match
// `sdy_opt -canonicalize` exactly, and that depends on the order ops are visited in and on where
// new ops land:
//   * each iteration seeds the worklist with every op in pre-order (top-down) and pops them in
//     that order; ops created or modified by a pattern, and defining ops of operands of erased
//     ops, are pushed and thus visited next;
//   * an op is first erased if it is trivially dead (unused and free of side effects), else the
//     patterns rooted at it are tried by decreasing benefit;
//   * `stablehlo.constant`s are uniqued and hoisted to the front of their isolated region, as
//     MLIR's `OperationFolder` does;
//   * after the worklist is drained, dead ops are swept (MLIR's region simplification), and the
//     whole thing repeats until nothing changes (at most 10 iterations).
#include "core/pipeline/canonicalize_internal.h"
#include "core/pipeline/pass_manager.h"
#include "core/pipeline/passes.h"

#include <algorithm>
#include <unordered_map>
#include <map>

namespace shardscope::pipeline {

namespace canon {

using ir::Operation;
using ir::Value;

// --- Rewriter ----------------------------------------------------------------------------------

void Rewriter::setInsertionPoint(Operation& op) {
  m_block = op.parentBlock();
  m_before = &op;
}

void Rewriter::setInsertionPointAfterValue(const Value& value) {
  if (Operation* def = value.definingOp()) {
    m_block = def->parentBlock();
    auto& ops = m_block->ops();
    auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& o) { return o.get() == def; });
    ++it;
    m_before = it == ops.end() ? nullptr : it->get();
    return;
  }
  m_block = value.ownerBlock();
  m_before = m_block->empty() ? nullptr : m_block->ops().front().get();
}

Operation* Rewriter::insert(std::unique_ptr<Operation> op) {
  Operation* raw = m_block->insertBefore(m_before, std::move(op));
  m_listener.notifyInserted(*raw);
  return raw;
}

Operation* Rewriter::create(std::string_view name, std::span<Value* const> operands,
                            std::span<const ir::Type> resultTypes,
                            std::vector<ir::NamedAttribute> inherentAttrs,
                            support::SourceLocation loc) {
  auto op = Operation::create(name, operands, resultTypes, loc);
  for (ir::NamedAttribute& a : inherentAttrs) {
    op->setAttr(a.name, ir::Attribute(a.value));
    op->setInherent(a.name, true);
  }
  return insert(std::move(op));
}

Operation* Rewriter::cloneWithoutRegions(const Operation& op) {
  std::vector<ir::Type> types;
  for (const auto& r : op.results())
    types.push_back(r->type());
  auto copy = Operation::create(op.name(), op.operands(), types, op.loc());
  for (const ir::NamedAttribute& a : op.attributes()) {
    copy->setAttr(a.name, ir::Attribute(a.value));
    copy->setInherent(a.name, op.isInherent(a.name));
  }
  return insert(std::move(copy));
}

void Rewriter::replaceAllUsesWith(Value& from, Value* to) {
  // MLIR walks a use list newest first; ours is appended to, so walk it backwards.
  std::vector<ir::Use> uses(from.uses().rbegin(), from.uses().rend());
  for (const ir::Use& use : uses) {
    use.user->setOperand(use.index, to);
    m_listener.notifyModified(*use.user);
  }
}

void Rewriter::replaceOp(Operation& op, std::span<Value* const> values) {
  for (unsigned i = 0; i < op.numResults() && i < values.size(); ++i)
    replaceAllUsesWith(*op.result(i), values[i]);
  eraseOp(op);
}

namespace {
// Tells the listener about every op nested in `op` (users before definitions, as MLIR's
// `eraseTree` does) and drops their operands one by one, so each notification sees the IR as
// it is at that point.
void notifyNestedErased(Operation& op, Listener& listener) {
  for (unsigned r = op.numRegions(); r-- > 0;)
    for (auto& block : op.region(r).blocks())
      for (auto it = block->ops().rbegin(); it != block->ops().rend(); ++it) {
        notifyNestedErased(**it, listener);
        listener.notifyErased(**it);
        (*it)->dropAllReferences();
      }
}
} // namespace

void Rewriter::eraseOp(Operation& op) {
  notifyNestedErased(op, m_listener);
  m_listener.notifyErased(op);
  if (m_before == &op)
    m_before = nullptr;
  op.parentBlock()->erase(&op);
}

void Rewriter::forget(Operation& op) {
  op.walk([&](Operation& nested) { m_listener.forget(nested); });
}

} // namespace canon

namespace {

using canon::Pattern;
using canon::Rewriter;
using ir::Operation;
using ir::Value;

// --- Side effects ------------------------------------------------------------------------------

enum class Effects { None, Recursive, Unknown };

bool isOneOf(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// StableHLO ops that are not `Pure`: collectives and I/O have effects, ops with regions have
// `RecursiveMemoryEffects`. Every other StableHLO op is pure.
Effects stablehloEffects(const Operation& op) {
  std::string_view n = op.name().substr(std::string_view("stablehlo.").size());
  if (n == "custom_call") {
    // StableHLO: all effects unless `has_side_effect = false`.
    const auto* flag = op.attr("has_side_effect").as<ir::BoolAttr>();
    return flag && !flag->value ? Effects::None : Effects::Unknown;
  }
  if (isOneOf(n, {"if", "case", "while", "reduce", "sort", "map", "scatter", "select_and_scatter",
                  "reduce_window"}))
    return Effects::Recursive;
  if (isOneOf(n, {"return", "all_gather", "all_reduce", "reduce_scatter", "all_to_all",
                  "collective_permute", "collective_broadcast", "cross-replica-sum", "send",
                  "recv", "infeed", "outfeed", "rng", "composite", "trace", "replica_id",
                  "partition_id", "print"}))
    return Effects::Unknown;
  return Effects::None;
}

// Shardy's `Pure` ops are reshard, propagation_barrier and constant; manual/named computations
// have recursive effects; everything else (sharding_constraint, sharding_group, data-flow edges,
// the explicit collectives) is effectful, so Shardy keeps them even when unused.
Effects effectsOf(const Operation& op) {
  if (op.dialect() == "stablehlo")
    return stablehloEffects(op);
  if (isOneOf(op.name(), {"sdy.reshard", "sdy.propagation_barrier", "sdy.constant"}))
    return Effects::None;
  if (isOneOf(op.name(), {"sdy.manual_computation", "sdy.named_computation"}))
    return Effects::Recursive;
  // Terminators, symbols (func.func, sdy.mesh), calls and unknown ops.
  return Effects::Unknown;
}

bool hasEffects(const Operation& op) {
  switch (effectsOf(op)) {
  case Effects::None:
    return false;
  case Effects::Unknown:
    return true;
  case Effects::Recursive:
    break;
  }
  for (unsigned r = 0; r < op.numRegions(); ++r)
    for (const auto& block : op.region(r).blocks())
      for (const auto& nested : block->ops())
        if (hasEffects(*nested))
          return true;
  return false;
}

// MLIR's `isOpTriviallyDead`: no result is used and erasing the op changes nothing else.
bool isTriviallyDead(const Operation& op) {
  for (const auto& r : op.results())
    if (r->hasUses())
      return false;
  return !hasEffects(op);
}

bool isIsolatedFromAbove(const Operation& op) {
  return isOneOf(op.name(), {"builtin.module", "func.func", "sdy.manual_computation",
                             "sdy.named_computation"});
}

Operation* prevOp(const Operation& op) {
  Operation* prev = nullptr;
  for (const auto& o : op.parentBlock()->ops()) {
    if (o.get() == &op)
      return prev;
    prev = o.get();
  }
  return nullptr;
}

void moveToFront(Operation& op, ir::Block& block) {
  std::unique_ptr<Operation> owned = op.parentBlock()->take(&op);
  block.insertBefore(block.empty() ? nullptr : block.ops().front().get(), std::move(owned));
}

// --- Worklist ----------------------------------------------------------------------------------

// MLIR's `Worklist`: a stack without duplicates; removed entries leave holes.
class Worklist {
public:
  void push(Operation* op) {
    if (m_index.count(op))
      return;
    m_index.emplace(op, m_list.size());
    m_list.push_back(op);
  }
  Operation* pop() {
    while (!m_list.empty()) {
      Operation* op = m_list.back();
      m_list.pop_back();
      if (op) {
        m_index.erase(op);
        return op;
      }
    }
    return nullptr;
  }
  void remove(Operation* op) {
    auto it = m_index.find(op);
    if (it == m_index.end())
      return;
    m_list[it->second] = nullptr;
    m_index.erase(it);
  }
  void reverse() {
    std::reverse(m_list.begin(), m_list.end());
    for (size_t i = 0; i < m_list.size(); ++i)
      if (m_list[i])
        m_index[m_list[i]] = i;
  }
  void clear() {
    m_list.clear();
    m_index.clear();
  }

private:
  std::vector<Operation*> m_list;
  std::unordered_map<Operation*, size_t> m_index;
};

// --- Driver ------------------------------------------------------------------------------------

constexpr int kMaxIterations = 10;

class Driver final : public canon::Listener {
public:
  explicit Driver(ir::Module& module, unsigned patternGroups = kAllCanonicalizePatterns)
      : m_module(module), m_rewriter(module, *this), m_scope(&module.op().region(0)) {
    std::vector<Pattern> all;
    if (patternGroups & kCollectivePatterns)
      canon::addCollectivePatterns(all);
    if (patternGroups & kReshardPatterns)
      canon::addReshardPatterns(all);
    if (patternGroups & kManualComputationPatterns)
      canon::addManualComputationPatterns(all);
    std::stable_sort(all.begin(), all.end(),
                     [](const Pattern& a, const Pattern& b) { return a.benefit > b.benefit; });
    for (const Pattern& p : all)
      m_patterns[p.opName].push_back(p);
  }

  void run() {
    for (int i = 0; i < kMaxIterations; ++i) {
      m_worklist.clear();
      seedWorklist();
      bool changed = processWorklist();
      changed |= eraseDeadOps(m_module.body());
      if (!changed)
        return;
    }
  }

  // Listener.
  void notifyInserted(Operation& op) override { addToWorklist(&op); }
  void notifyModified(Operation& op) override { addToWorklist(&op); }
  void notifyErased(Operation& op) override {
    addOperandsToWorklist(op);
    m_worklist.remove(&op);
    forgetConstant(op);
  }
  void forget(Operation& op) override { m_worklist.remove(&op); }

private:
  // Every op in pre-order, so that popping visits them top-down. Constants are uniqued first.
  void seedWorklist() {
    std::vector<Operation*> ops;
    for (auto& op : m_module.body().ops())
      op->walk([&](Operation& nested) { ops.push_back(&nested); });
    for (Operation* op : ops)
      if (!op->is("stablehlo.constant") || insertKnownConstant(*op))
        m_worklist.push(op);
    m_worklist.reverse();
  }

  bool processWorklist() {
    bool changed = false;
    while (Operation* op = m_worklist.pop()) {
      if (isTriviallyDead(*op)) {
        m_rewriter.eraseOp(*op);
        changed = true;
        continue;
      }
      changed |= applyPatterns(*op);
    }
    return changed;
  }

  bool applyPatterns(Operation& op) {
    auto it = m_patterns.find(op.name());
    if (it == m_patterns.end())
      return false;
    for (const Pattern& p : it->second) {
      m_rewriter.setInsertionPoint(op);
      if (p.fn(op, m_rewriter))
        return true;
    }
    return false;
  }

  // MLIR's region simplification for single-block regions: erase dead ops, users before
  // definitions, recursing into the regions of ops that stay.
  bool eraseDeadOps(ir::Block& block) {
    bool erased = false;
    std::vector<Operation*> ops;
    for (auto& op : block.ops())
      ops.push_back(op.get());
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
      if (isTriviallyDead(**it)) {
        m_rewriter.eraseOp(**it);
        erased = true;
        continue;
      }
      for (unsigned r = 0; r < (*it)->numRegions(); ++r)
        for (auto& nested : (*it)->region(r).blocks())
          erased |= eraseDeadOps(*nested);
    }
    return erased;
  }

  // Adds `op` and its ancestors below the module (ancestors popped first), unless present.
  void addToWorklist(Operation* op) {
    std::vector<Operation*> ancestors;
    while (op) {
      ancestors.push_back(op);
      ir::Block* block = op->parentBlock();
      if (!block)
        return;
      if (block->parentRegion() == m_scope) {
        for (Operation* a : ancestors)
          m_worklist.push(a);
        return;
      }
      op = block->parentOp();
    }
  }

  // When an op goes away, the ops defining its operands may become dead or foldable: revisit
  // each whose value has at most one other user.
  void addOperandsToWorklist(Operation& op) {
    for (Value* operand : op.operands()) {
      if (!operand || !operand->definingOp())
        continue;
      Operation* otherUser = nullptr;
      bool moreThanTwo = false;
      for (const ir::Use& use : operand->uses()) {
        if (use.user == &op || use.user == otherUser)
          continue;
        if (!otherUser) {
          otherUser = use.user;
          continue;
        }
        moreThanTwo = true;
        break;
      }
      if (!moreThanTwo)
        addToWorklist(operand->definingOp());
    }
  }

  // --- Constants (MLIR's `OperationFolder::insertKnownConstant`) ---

  // The region constants of `block` are hoisted to: the closest isolated-from-above one.
  ir::Region* insertionRegion(ir::Block& block) {
    ir::Region* region = block.parentRegion();
    while (Operation* parent = region->parentOp()) {
      if (isIsolatedFromAbove(*parent) || !parent->parentBlock())
        break;
      region = parent->parentBlock()->parentRegion();
    }
    return region;
  }

  // Returns false when `op` duplicated a known constant and was replaced by it.
  bool insertKnownConstant(Operation& op) {
    ir::Block& opBlock = *op.parentBlock();
    if (m_constantKeys.count(&op)) {
      Operation* prev = prevOp(op);
      if (prev && !m_constantKeys.count(prev))
        moveToFront(op, opBlock);
      return true;
    }
    ConstantKey key{insertionRegion(opBlock), op.result(0)->type().opaquePointer()};
    std::vector<Operation*>& known = m_constants[key];
    for (Operation* k : known)
      if (k->attr("value") == op.attr("value")) {
        m_rewriter.replaceOp(op, k->result(0));
        return false;
      }
    ir::Block& insertBlock = key.first->front();
    Operation* prev = &opBlock == &insertBlock ? prevOp(op) : nullptr;
    if (&opBlock != &insertBlock || (prev && !m_constantKeys.count(prev)))
      moveToFront(op, insertBlock);
    known.push_back(&op);
    m_constantKeys.emplace(&op, key);
    return true;
  }

  void forgetConstant(Operation& op) {
    auto it = m_constantKeys.find(&op);
    if (it == m_constantKeys.end())
      return;
    std::erase(m_constants[it->second], &op);
    m_constantKeys.erase(it);
  }

  // Uniqued constants by (insertion region, result type); MLIR also keys on the value.
  using ConstantKey = std::pair<ir::Region*, const void*>;
  std::map<ConstantKey, std::vector<Operation*>> m_constants;
  std::unordered_map<Operation*, ConstantKey> m_constantKeys;

  ir::Module& m_module;
  Rewriter m_rewriter;
  ir::Region* m_scope;
  Worklist m_worklist;
  std::unordered_map<std::string_view, std::vector<Pattern>> m_patterns;
};

bool runCanonicalize(ir::Module& module, const PassOptions&, support::DiagnosticSink&) {
  Driver(module).run();
  return true;
}

} // namespace

void canonicalize(ir::Module& module, unsigned patternGroups) {
  Driver(module, patternGroups).run();
}

void registerCanonicalizePass(PassRegistry& registry) {
  registry.add({"canonicalize",
                "folds no-op collectives and reshards, fuses collectives, removes dead code",
                {},
                runCanonicalize});
}

} // namespace shardscope::pipeline
