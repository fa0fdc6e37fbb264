#include "core/partition/explicit_reshards_util.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <unordered_map>
#include <vector>

namespace shardscope::partition {

ir::Operation* insertReshardBefore(ir::Operation& before, ir::Value* input,
                                   const ir::TensorSharding& sharding) {
  return insertReshardBefore(before, input, ir::Attribute::sharding(sharding));
}

ir::Operation* insertReshardBefore(ir::Operation& before, ir::Value* input,
                                   ir::Attribute sharding) {
  std::vector<ir::Value*> operands{input};
  std::vector<ir::Type> types{input->type()};
  auto reshard = ir::Operation::create("sdy.reshard", operands, types, before.loc());
  reshard->setAttr("sharding", std::move(sharding));
  reshard->setInherent("sharding", true);
  return before.parentBlock()->insertBefore(&before, std::move(reshard));
}

ir::Value* insertAllReduceBefore(ir::Operation& before, ir::Value* input,
                                 const std::vector<ir::AxisRef>& axes,
                                 const ir::TensorSharding& outSharding,
                                 support::SourceLocation loc, std::string_view kind) {
  std::vector<ir::Value*> operands{input};
  std::vector<ir::Type> types{input->type()};
  auto allReduce = ir::Operation::create("sdy.all_reduce", operands, types, loc);
  if (!kind.empty()) {
    allReduce->setAttr("reduction_kind", ir::Attribute::opaque(std::string(kind)));
    allReduce->setInherent("reduction_kind", true);
  }
  allReduce->setAttr("reduction_axes", ir::Attribute::axisRefList(axes));
  allReduce->setInherent("reduction_axes", true);
  allReduce->setAttr("out_sharding", ir::Attribute::sharding(outSharding));
  allReduce->setInherent("out_sharding", true);
  return before.parentBlock()->insertBefore(&before, std::move(allReduce))->result(0);
}

ir::TensorSharding replicatedOn(const std::string& meshName, int64_t rank) {
  ir::TensorSharding out;
  out.meshName = meshName;
  out.dims.resize(static_cast<size_t>(rank));
  return out;
}

struct NextOpScope::Index {
  using Positions = std::unordered_map<const ir::Operation*, ir::Block::OpList::iterator>;
  std::unordered_map<const ir::Block*, Positions> blocks;
  // The position of the op asked about last. Ops are asked about in block order, with at most a
  // few ops inserted in between, so a short walk from it usually finds the next one without a
  // lookup in a table as large as the block.
  const ir::Block* lastBlock = nullptr;
  ir::Block::OpList::iterator last;

  // `op`'s position found by walking a few ops on from the last one, if it is there.
  std::optional<ir::Block::OpList::iterator> nearLast(const ir::Operation& op) const {
    if (lastBlock != op.parentBlock())
      return std::nullopt;
    auto it = last;
    for (int step = 0; step < 8 && it != op.parentBlock()->ops().end(); ++step, ++it)
      if (it->get() == &op)
        return it;
    return std::nullopt;
  }

  static void build(ir::Block& block, Positions& positions) {
    positions.clear();
    positions.reserve(block.ops().size());
    for (auto it = block.ops().begin(); it != block.ops().end(); ++it)
      positions.emplace(it->get(), it);
  }
};

namespace {
thread_local NextOpScope::Index* t_nextOpIndex = nullptr;
} // namespace

NextOpScope::NextOpScope()
    : m_index(std::make_unique<Index>()), m_previous(t_nextOpIndex) {
  t_nextOpIndex = m_index.get();
}

NextOpScope::~NextOpScope() { t_nextOpIndex = m_previous; }

void forgetOp(const ir::Operation& op) {
  NextOpScope::Index* index = t_nextOpIndex;
  if (!index)
    return;
  if (op.numRegions() != 0 || (index->lastBlock && index->last->get() == &op))
    index->lastBlock = nullptr; // its position (or its nested blocks) goes away
  if (op.numRegions() != 0) {
    index->blocks.clear(); // nested blocks go with it
    return;
  }
  if (auto it = index->blocks.find(op.parentBlock()); it != index->blocks.end())
    it->second.erase(&op);
}

namespace {

// `op`'s position from the index of its block (built on first use, rebuilt for ops inserted
// since).
std::optional<ir::Block::OpList::iterator> indexedPosition(NextOpScope::Index& index,
                                                           ir::Operation& op) {
  ir::Block* block = op.parentBlock();
  auto [b, inserted] = index.blocks.try_emplace(block);
  if (inserted)
    NextOpScope::Index::build(*block, b->second);
  auto it = b->second.find(&op);
  if (it == b->second.end()) {
    // Inserted since the block was indexed.
    NextOpScope::Index::build(*block, b->second);
    it = b->second.find(&op);
  }
  if (it == b->second.end())
    return std::nullopt;
  return it->second;
}

} // namespace

ir::Operation* nextOp(ir::Operation& op) {
  if (NextOpScope::Index* index = t_nextOpIndex) {
    std::optional<ir::Block::OpList::iterator> position = index->nearLast(op);
    if (!position)
      position = indexedPosition(*index, op);
    if (position) {
      index->lastBlock = op.parentBlock();
      index->last = *position;
      auto next = std::next(*position);
      return next == op.parentBlock()->ops().end() ? nullptr : next->get();
    }
  }
  bool found = false;
  for (const auto& p : op.parentBlock()->ops()) {
    if (found)
      return p.get();
    if (p.get() == &op)
      found = true;
  }
  return nullptr;
}

} // namespace shardscope::partition
