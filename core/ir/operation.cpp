#include "core/ir/operation.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <unordered_set>

namespace shardscope::ir {

namespace {

// Op names are few and ops many: each distinct name is stored once, for the life of the process
// (node-based set: its strings never move). Ops keep a view of it.
std::string_view internOpName(std::string_view name) {
  static std::mutex mutex;
  static std::unordered_set<std::string> names;
  std::lock_guard lock(mutex);
  return *names.emplace(name).first;
}

} // namespace

void Value::replaceAllUsesWith(Value* other) {
  if (other == this)
    return;
  std::vector<Use> uses = m_uses;
  for (const Use& use : uses)
    use.user->setOperand(use.index, other);
}

Block& Region::front() {
  if (m_blocks.empty())
    addBlock();
  return *m_blocks.front();
}

Block& Region::addBlock() {
  m_blocks.push_back(std::make_unique<Block>(this));
  return *m_blocks.back();
}

Block::~Block() {
  // Drop all references first so values defined later in the block can die in any order.
  for (auto& op : m_ops)
    op->dropAllReferences();
  m_ops.clear();
}

Value* Block::addArgument(Type type) {
  m_args.push_back(std::make_unique<Value>(type, nullptr, this, numArguments()));
  return m_args.back().get();
}

Operation* Block::push_back(std::unique_ptr<Operation> op) { return insertBefore(nullptr, std::move(op)); }

Operation* Block::insertBefore(Operation* before, std::unique_ptr<Operation> op) {
  Operation* raw = op.get();
  auto pos = before ? before->m_self : m_ops.end();
  raw->m_self = m_ops.insert(pos, std::move(op));
  raw->m_parentBlock = this;
  return raw;
}

std::unique_ptr<Operation> Block::take(Operation* op) {
  std::unique_ptr<Operation> owned = std::move(*op->m_self);
  m_ops.erase(op->m_self);
  op->m_parentBlock = nullptr;
  return owned;
}

void Block::erase(Operation* op) {
  std::unique_ptr<Operation> owned = take(op);
  owned->dropAllReferences();
}

std::unique_ptr<Operation> Operation::create(std::string_view name,
                                             std::span<Value* const> operands,
                                             std::span<const Type> resultTypes,
                                             support::SourceLocation loc) {
  std::unique_ptr<Operation> op(new Operation());
  op->m_name = internOpName(name);
  op->m_loc = loc;
  op->setOperands(operands);
  op->m_results.reserve(resultTypes.size());
  for (size_t i = 0; i < resultTypes.size(); ++i)
    op->m_results.push_back(
        std::make_unique<Value>(resultTypes[i], op.get(), nullptr, static_cast<unsigned>(i)));
  return op;
}

Operation::~Operation() { dropAllReferences(); }

std::unique_ptr<Operation> Operation::clone(ValueMapping& mapping) const {
  // Built in place (rather than through `create`): no temporary operand/type vectors.
  std::unique_ptr<Operation> copy(new Operation());
  Operation* raw = copy.get();
  raw->m_name = m_name;
  raw->m_loc = m_loc;
  raw->m_debugLoc = m_debugLoc;
  raw->m_operands.reserve(m_operands.size());
  for (unsigned i = 0; i < m_operands.size(); ++i) {
    Value* operand = m_operands[i];
    if (operand) {
      auto found = mapping.find(operand);
      if (found != mapping.end())
        operand = found->second;
    }
    raw->m_operands.push_back(operand);
  }
  raw->m_usePos.resize(raw->m_operands.size());
  for (unsigned i = 0; i < raw->m_operands.size(); ++i)
    raw->linkUse(i);
  raw->m_results.reserve(m_results.size());
  for (size_t i = 0; i < m_results.size(); ++i) {
    const Value& result = *m_results[i];
    raw->m_results.push_back(
        std::make_unique<Value>(result.type(), raw, nullptr, static_cast<unsigned>(i)));
    raw->m_results.back()->setNameHint(result.nameHint());
    mapping.emplace(&result, raw->m_results.back().get());
  }
  raw->m_attrs = m_attrs;
  raw->m_inherent = m_inherent;
  for (const auto& region : m_regions) {
    Region& newRegion = copy->addRegion();
    for (const auto& block : region->blocks()) {
      Block& newBlock = newRegion.addBlock();
      for (const auto& argument : block->arguments()) {
        Value* newArgument = newBlock.addArgument(argument->type());
        newArgument->setNameHint(argument->nameHint());
        newArgument->setDebugLoc(argument->debugLoc());
        mapping.emplace(argument.get(), newArgument);
      }
    }
    // Ops after all blocks' arguments: a branch may name a later block's argument.
    for (size_t b = 0; b < region->blocks().size(); ++b)
      for (const auto& op : region->blocks()[b]->ops())
        newRegion.blocks()[b]->push_back(op->clone(mapping));
  }
  return copy;
}

std::string_view Operation::dialect() const {
  std::string_view n = m_name;
  size_t dot = n.find('.');
  return dot == std::string_view::npos ? std::string_view() : n.substr(0, dot);
}

void Operation::unlinkUse(unsigned i) {
  Value* value = m_operands[i];
  if (!value)
    return;
  std::vector<Use>& uses = value->m_uses;
  unsigned pos = m_usePos[i];
  const Use last = uses.back();
  // The last use fills the hole and its operand slot learns its new position (when the removed
  // use is the last one, this rewrites it in place before it is popped).
  uses[pos] = last;
  last.user->m_usePos[last.index] = pos;
  uses.pop_back();
}

void Operation::linkUse(unsigned i) {
  Value* value = m_operands[i];
  if (!value)
    return;
  m_usePos[i] = static_cast<unsigned>(value->m_uses.size());
  value->m_uses.push_back({this, i});
}

void Operation::setOperand(unsigned i, Value* value) {
  if (m_operands[i] == value)
    return;
  unlinkUse(i);
  m_operands[i] = value;
  linkUse(i);
}

void Operation::setOperands(std::span<Value* const> values) {
  for (unsigned i = 0; i < m_operands.size(); ++i)
    unlinkUse(i);
  m_operands.assign(values.begin(), values.end());
  m_usePos.assign(values.size(), 0);
  for (unsigned i = 0; i < m_operands.size(); ++i)
    linkUse(i);
}

void Operation::dropAllReferences() {
  for (unsigned i = 0; i < m_operands.size(); ++i)
    setOperand(i, nullptr);
  for (auto& region : m_regions)
    for (auto& block : region->blocks())
      for (auto& op : block->ops())
        op->dropAllReferences();
}

Attribute Operation::attr(std::string_view name) const {
  for (const NamedAttribute& a : m_attrs)
    if (a.name == name)
      return Attribute(a.value);
  return {};
}

void Operation::setAttr(std::string_view name, Attribute value) {
  auto it = std::lower_bound(m_attrs.begin(), m_attrs.end(), name,
                             [](const NamedAttribute& a, std::string_view n) { return a.name < n; });
  if (it != m_attrs.end() && it->name == name) {
    it->value = value.impl();
    return;
  }
  m_attrs.insert(it, NamedAttribute{std::string(name), value.impl()});
}

bool Operation::removeAttr(std::string_view name) {
  auto it = std::find_if(m_attrs.begin(), m_attrs.end(),
                         [&](const NamedAttribute& a) { return a.name == name; });
  if (it == m_attrs.end())
    return false;
  m_attrs.erase(it);
  setInherent(name, false);
  return true;
}

bool Operation::isInherent(std::string_view name) const {
  return std::find(m_inherent.begin(), m_inherent.end(), name) != m_inherent.end();
}

void Operation::setInherent(std::string_view name, bool inherent) {
  auto it = std::find(m_inherent.begin(), m_inherent.end(), name);
  if (inherent && it == m_inherent.end())
    m_inherent.emplace_back(name);
  else if (!inherent && it != m_inherent.end())
    m_inherent.erase(it);
}

Region& Operation::addRegion() {
  m_regions.push_back(std::make_unique<Region>(this));
  return *m_regions.back();
}

Region& Operation::adoptRegion(std::unique_ptr<Region> region) {
  region->setParentOp(this);
  m_regions.push_back(std::move(region));
  return *m_regions.back();
}

Operation* Operation::parentOfName(std::string_view name) const {
  for (Operation* p = parentOp(); p; p = p->parentOp())
    if (p->is(name))
      return p;
  return nullptr;
}

std::vector<Type> operandTypes(const Operation& op) {
  std::vector<Type> types;
  types.reserve(op.numOperands());
  for (const Value* v : op.operands())
    types.push_back(v->type());
  return types;
}

std::vector<Type> resultTypes(const Operation& op) {
  std::vector<Type> types;
  types.reserve(op.numResults());
  for (const auto& v : op.results())
    types.push_back(v->type());
  return types;
}

} // namespace shardscope::ir
