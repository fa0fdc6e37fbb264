#pragma once

#include "core/ir/attribute.h"
#include "core/ir/location.h"
#include "core/ir/type.h"
#include "core/support/diagnostic.h"

#include <list>
#include <memory>
#include <unordered_map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::ir {

class Block;
class Operation;
class Region;

/// One use of a value: operand `index` of `user`.
struct Use {
  Operation* user = nullptr;
  unsigned index = 0;
  bool operator==(const Use&) const = default;
};

/// An SSA value: an op result or a block argument. Values are owned by their op or block and
/// have stable addresses for their whole life.
class Value {
public:
  Value(Type type, Operation* definingOp, Block* ownerBlock, unsigned index)
      : m_type(type), m_definingOp(definingOp), m_ownerBlock(ownerBlock), m_index(index) {}
  Value(const Value&) = delete;
  Value& operator=(const Value&) = delete;

  Type type() const { return m_type; }
  void setType(Type type) { m_type = type; }
  /// The op this value is a result of, or null for a block argument.
  Operation* definingOp() const { return m_definingOp; }
  /// The block this value is an argument of, or null for an op result.
  Block* ownerBlock() const { return m_ownerBlock; }
  bool isBlockArgument() const { return m_ownerBlock != nullptr; }
  /// Result number or argument number.
  unsigned index() const { return m_index; }
  /// The name written in the source (`%foo` gives "foo"), used as a printing hint and by the CLI
  /// to find values; empty when the source used a plain number.
  const std::string& nameHint() const { return m_nameHint; }
  void setNameHint(std::string hint) { m_nameHint = std::move(hint); }
  /// The debug location written after a block argument (`%arg0: tensor<4xf32> loc("x")`), an
  /// index into the module's `LocationTable`; `kUnknownLoc` for op results and unlocated
  /// arguments (an op result's location is its op's).
  DebugLoc debugLoc() const { return m_debugLoc; }
  void setDebugLoc(DebugLoc loc) { m_debugLoc = loc; }
  /// Every place this value is used, in no particular order. Each operand slot remembers where
  /// its use sits in this list, so adding or removing a use is O(1) (the last use moves into the
  /// hole), however many uses the value has.
  const std::vector<Use>& uses() const { return m_uses; }
  bool hasUses() const { return !m_uses.empty(); }
  /// Makes every use of this value use `other` instead.
  void replaceAllUsesWith(Value* other);

private:
  friend class Operation;
  Type m_type;
  Operation* m_definingOp;
  Block* m_ownerBlock;
  unsigned m_index;
  DebugLoc m_debugLoc = kUnknownLoc;
  std::string m_nameHint;
  std::vector<Use> m_uses;
};

/// A list of blocks attached to an op. StableHLO and Shardy regions have a single block.
class Region {
public:
  explicit Region(Operation* parent) : m_parent(parent) {}
  Operation* parentOp() const { return m_parent; }
  /// Re-parents a region built before its op existed (the parser builds regions first).
  void setParentOp(Operation* parent) { m_parent = parent; }
  std::vector<std::unique_ptr<Block>>& blocks() { return m_blocks; }
  const std::vector<std::unique_ptr<Block>>& blocks() const { return m_blocks; }
  bool empty() const { return m_blocks.empty(); }
  /// Returns the first block, creating it when the region is empty.
  Block& front();
  const Block& front() const { return *m_blocks.front(); }
  /// Appends a new empty block and returns it.
  Block& addBlock();

private:
  Operation* m_parent;
  std::vector<std::unique_ptr<Block>> m_blocks;
};

/// A sequence of ops with arguments. Owns its ops.
class Block {
public:
  using OpList = std::list<std::unique_ptr<Operation>>;

  explicit Block(Region* parent) : m_parent(parent) {}
  ~Block();

  Region* parentRegion() const { return m_parent; }
  Operation* parentOp() const { return m_parent ? m_parent->parentOp() : nullptr; }

  /// Block arguments.
  std::span<const std::unique_ptr<Value>> arguments() const { return m_args; }
  Value* argument(unsigned i) const { return m_args[i].get(); }
  unsigned numArguments() const { return static_cast<unsigned>(m_args.size()); }
  Value* addArgument(Type type);

  OpList& ops() { return m_ops; }
  const OpList& ops() const { return m_ops; }
  bool empty() const { return m_ops.empty(); }
  /// The last op (the terminator of a well-formed block), or null.
  Operation* back() const { return m_ops.empty() ? nullptr : m_ops.back().get(); }

  /// Appends `op` and returns it.
  Operation* push_back(std::unique_ptr<Operation> op);
  /// Inserts `op` before `before` (which must be in this block; null appends).
  Operation* insertBefore(Operation* before, std::unique_ptr<Operation> op);
  /// Removes `op` from this block and destroys it. Its results must have no uses.
  void erase(Operation* op);
  /// Removes `op` from this block without destroying it.
  std::unique_ptr<Operation> take(Operation* op);

private:
  Region* m_parent;
  std::vector<std::unique_ptr<Value>> m_args;
  OpList m_ops;
};

/// One operation: a name (`stablehlo.add`), operands, results, attributes, regions and a source
/// location. Functions, meshes and the module itself are operations too, as in MLIR.
class Operation {
public:
  /// Creates a detached op with results of `resultTypes`.
  static std::unique_ptr<Operation> create(std::string_view name, std::span<Value* const> operands,
                                           std::span<const Type> resultTypes,
                                           support::SourceLocation loc = {});
  ~Operation();
  Operation(const Operation&) = delete;
  Operation& operator=(const Operation&) = delete;

  /// The full op name, e.g. "stablehlo.add". Names are interned process-wide: every op of one
  /// name shares one string that lives as long as the process.
  std::string_view name() const { return m_name; }
  /// True when the op is named `name`.
  bool is(std::string_view name) const { return m_name == name; }
  /// The dialect prefix ("stablehlo", "sdy", "func").
  std::string_view dialect() const;

  support::SourceLocation loc() const { return m_loc; }
  void setLoc(support::SourceLocation loc) { m_loc = loc; }
  /// The op's MLIR debug location (`loc(...)` in the text; what JAX says it came from), an index
  /// into the module's `LocationTable`. Kept through clones; printing never shows it.
  DebugLoc debugLoc() const { return m_debugLoc; }
  void setDebugLoc(DebugLoc loc) { m_debugLoc = loc; }

  // Operands.
  unsigned numOperands() const { return static_cast<unsigned>(m_operands.size()); }
  Value* operand(unsigned i) const { return m_operands[i]; }
  std::span<Value* const> operands() const { return m_operands; }
  void setOperand(unsigned i, Value* value);
  void setOperands(std::span<Value* const> values);

  // Results.
  unsigned numResults() const { return static_cast<unsigned>(m_results.size()); }
  Value* result(unsigned i) const { return m_results[i].get(); }
  std::span<const std::unique_ptr<Value>> results() const { return m_results; }

  // Attributes, kept sorted by name like an MLIR dictionary. Inherent attributes (MLIR
  // "properties") are the op's own parameters; the rest are discardable annotations.
  const std::vector<NamedAttribute>& attributes() const { return m_attrs; }
  Attribute attr(std::string_view name) const;
  bool hasAttr(std::string_view name) const { return static_cast<bool>(attr(name)); }
  /// Sets (or replaces) attribute `name`.
  void setAttr(std::string_view name, Attribute value);
  /// Removes attribute `name`; returns true if it was present.
  bool removeAttr(std::string_view name);
  /// Returns true when `name` was written as an inherent attribute (`<{...}>`).
  bool isInherent(std::string_view name) const;
  void setInherent(std::string_view name, bool inherent);

  // Regions.
  unsigned numRegions() const { return static_cast<unsigned>(m_regions.size()); }
  Region& region(unsigned i) const { return *m_regions[i]; }
  Region& addRegion();
  /// Takes ownership of `region`, built detached, as this op's next region.
  Region& adoptRegion(std::unique_ptr<Region> region);

  // Position.
  Block* parentBlock() const { return m_parentBlock; }
  Operation* parentOp() const { return m_parentBlock ? m_parentBlock->parentOp() : nullptr; }
  /// The nearest enclosing op named `name`, or null.
  Operation* parentOfName(std::string_view name) const;

  /// Calls `fn` on this op and every op nested in its regions, in pre-order.
  template <typename Fn> void walk(Fn&& fn);
  /// Const version of `walk`: `fn` receives `const Operation&`.
  template <typename Fn> void walk(Fn&& fn) const;

  /// Drops every operand so the values it used lose this use (before destruction).
  void dropAllReferences();

  /// Maps the values of an op to the values of its clone.
  using ValueMapping = std::unordered_map<const Value*, Value*>;
  /// A detached deep copy of this op: its regions, blocks and ops, attributes (shared: they are
  /// immutable), locations and name hints. Operands are looked up in `mapping` (values defined
  /// outside the op and missing from it stay the original values); every result and block
  /// argument of the copy is added to it.
  std::unique_ptr<Operation> clone(ValueMapping& mapping) const;

private:
  friend class Block;
  Operation() = default;
  /// Detaches operand `i` from its value's use list (swap-remove through `m_usePos`).
  void unlinkUse(unsigned i);
  /// Appends operand `i` (already stored) to its value's use list.
  void linkUse(unsigned i);

  std::string_view m_name;
  support::SourceLocation m_loc;
  DebugLoc m_debugLoc = kUnknownLoc;
  std::vector<Value*> m_operands;
  /// `m_usePos[i]` is the position of operand `i`'s use in `m_operands[i]->uses()` (unused for
  /// a null operand).
  std::vector<unsigned> m_usePos;
  std::vector<std::unique_ptr<Value>> m_results;
  std::vector<NamedAttribute> m_attrs;
  std::vector<std::string> m_inherent;
  std::vector<std::unique_ptr<Region>> m_regions;
  Block* m_parentBlock = nullptr;
  Block::OpList::iterator m_self;
};

template <typename Fn> void Operation::walk(Fn&& fn) {
  fn(*this);
  for (auto& region : m_regions)
    for (auto& block : region->blocks())
      for (auto& op : block->ops())
        op->walk(fn);
}

template <typename Fn> void Operation::walk(Fn&& fn) const {
  fn(*this);
  for (const auto& region : m_regions)
    for (const auto& block : region->blocks())
      for (const auto& op : block->ops())
        static_cast<const Operation&>(*op).walk(fn);
}

/// The types of `op`'s operands, in operand order.
std::vector<Type> operandTypes(const Operation& op);

/// The types of `op`'s results, in result order.
std::vector<Type> resultTypes(const Operation& op);

} // namespace shardscope::ir
