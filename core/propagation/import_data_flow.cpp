#include "core/propagation/import_data_flow.h"

#include "core/propagation/import_sharding_utils.h"

#include <algorithm>

namespace shardscope::propagation {

using ir::Operation;
using ir::TensorSharding;
using ir::Value;

namespace {

std::vector<TensorSharding> perValueList(const Operation& op, std::string_view name) {
  if (const auto* list = op.attr(name).as<ir::ShardingPerValueAttr>())
    return list->shardings;
  return {};
}

void setPerValueList(Operation& op, std::string_view name, std::vector<TensorSharding> shardings,
                     bool inherent) {
  op.setAttr(name, ir::Attribute::shardingPerValue(std::move(shardings)));
  op.setInherent(name, inherent);
}

// Ops whose single result carries its sharding as an op parameter.
const char* ownShardingAttrName(const Operation& op) {
  if (op.is("sdy.data_flow_edge") || op.is("sdy.sharding_constraint") || op.is("sdy.reshard"))
    return "sharding";
  if (op.dialect() == "sdy" && op.hasAttr("out_sharding"))
    return "out_sharding"; // explicit collectives
  return nullptr;
}

// Owner shardings, with fully open ones for every owner when none exist yet (Shardy's
// `getOpenShardingsWithShardingAtIndex`), so one of them can be replaced.
std::vector<TensorSharding> ownerShardingsOrOpen(std::vector<TensorSharding> current,
                                                 const std::vector<Value*>& owners,
                                                 const TensorSharding& like) {
  if (!current.empty())
    return current;
  for (const Value* owner : owners)
    current.push_back(fullyReplicatedLike(like, rankOf(*owner), /*closed=*/false));
  return current;
}

// Shardy's `replaceShardingAtIndex` on an op's `sdy.sharding` list.
void replaceShardingAtIndex(Operation& op, unsigned index, const TensorSharding& sharding) {
  std::vector<TensorSharding> list = shardingsOf(op);
  if (list.empty())
    for (const auto& result : op.results())
      list.push_back(fullyReplicatedLike(sharding, rankOf(*result), /*closed=*/false));
  list[index] = sharding;
  op.setAttr("sdy.sharding", ir::Attribute::shardingPerValue(std::move(list)));
}

std::list<std::unique_ptr<Operation>>::iterator positionOf(Operation& op) {
  auto& ops = op.parentBlock()->ops();
  return std::find_if(ops.begin(), ops.end(), [&](const auto& o) { return o.get() == &op; });
}

void collectPostOrder(Operation& op, std::vector<Operation*>& out) {
  for (unsigned r = 0; r < op.numRegions(); ++r)
    for (auto& block : op.region(r).blocks())
      for (auto& nested : block->ops()) {
        collectPostOrder(*nested, out);
        out.push_back(nested.get());
      }
}

} // namespace

Operation* owningOp(const Value& value) {
  if (Operation* def = value.definingOp())
    return def;
  return value.ownerBlock() ? value.ownerBlock()->parentOp() : nullptr;
}

bool isRegionDataFlowOp(const Operation& op) {
  return op.is("sdy.manual_computation") || op.is("sdy.named_computation");
}

bool isDataFlowOp(const Operation& op) {
  return op.is("stablehlo.while") || op.is("stablehlo.case") ||
         op.is("stablehlo.optimization_barrier") || isRegionDataFlowOp(op);
}

std::vector<Value*> resultEdgeOwners(const Operation& op) {
  std::vector<Value*> owners;
  if (isDataFlowOp(op))
    for (const auto& result : op.results())
      owners.push_back(result.get());
  return owners;
}

std::vector<Value*> blockArgEdgeOwners(const Operation& op) {
  std::vector<Value*> owners;
  if (isRegionDataFlowOp(op) && op.numRegions() == 1 && !op.region(0).empty())
    for (const auto& arg : op.region(0).front().arguments())
      owners.push_back(arg.get());
  return owners;
}

Value* edgeOwnerOfTarget(const Value& target) {
  Operation* op = owningOp(target);
  if (!op || !isDataFlowOp(*op))
    return nullptr;
  if (!target.isBlockArgument() || isRegionDataFlowOp(*op))
    return const_cast<Value*>(&target);
  // `while`: the cond/body argument shares the edge of the matching result.
  if (op->is("stablehlo.while") && target.index() < op->numResults())
    return op->result(target.index());
  return nullptr;
}

Operation* dataFlowEdgeUser(const Value* owner) {
  if (!owner || owner->uses().size() != 1)
    return nullptr;
  Operation* user = owner->uses().front().user;
  return user->is("sdy.data_flow_edge") ? user : nullptr;
}

Operation* lookupDataFlowEdge(const Value& target) {
  return dataFlowEdgeUser(edgeOwnerOfTarget(target));
}

Value* shardableValue(Value& value) {
  if (Operation* edge = lookupDataFlowEdge(value))
    return edge->result(0);
  if (!value.isBlockArgument())
    return &value;
  Operation* parent = owningOp(value);
  if (parent && parent->is("func.func"))
    return &value;
  // Other region arguments (reduction bodies, ...) are scalars that can't be sharded.
  return edgeOwnerOfTarget(value);
}

std::optional<TensorSharding> shardingOf(Value& value) {
  Value* v = shardableValue(value);
  if (!v)
    return std::nullopt;
  Operation* op = owningOp(*v);
  std::vector<TensorSharding> list;
  if (v->isBlockArgument()) {
    if (op->is("func.func")) {
      const ir::DictionaryAttr* attrs = ir::func::argAttrs(*op, v->index());
      const auto* s = attrs ? attrs->get("sdy.sharding").as<ir::ShardingAttr>() : nullptr;
      return s ? std::optional(s->sharding) : std::nullopt;
    }
    list = blockArgOwnerShardings(*op);
  } else if (const char* name = ownShardingAttrName(*op)) {
    const auto* s = op->attr(name).as<ir::ShardingAttr>();
    return s ? std::optional(s->sharding) : std::nullopt;
  } else {
    list = isDataFlowOp(*op) ? resultOwnerShardings(*op) : shardingsOf(*op);
  }
  if (v->index() < list.size())
    return list[v->index()];
  return std::nullopt;
}

void setSharding(Value& value, const TensorSharding& sharding) {
  Value* v = shardableValue(value);
  if (!v)
    return;
  Operation* op = owningOp(*v);
  unsigned index = v->index();
  if (v->isBlockArgument()) {
    if (op->is("func.func")) {
      ir::func::setArgAttr(*op, index, "sdy.sharding", ir::Attribute::sharding(sharding));
      return;
    }
    auto list =
        ownerShardingsOrOpen(blockArgOwnerShardings(*op), blockArgEdgeOwners(*op), sharding);
    list[index] = sharding;
    setBlockArgOwnerShardings(*op, std::move(list));
  } else if (const char* name = ownShardingAttrName(*op)) {
    op->setAttr(name, ir::Attribute::sharding(sharding));
    op->setInherent(name, true);
  } else if (isDataFlowOp(*op)) {
    auto list = ownerShardingsOrOpen(resultOwnerShardings(*op), resultEdgeOwners(*op), sharding);
    list[index] = sharding;
    setResultOwnerShardings(*op, std::move(list));
  } else {
    replaceShardingAtIndex(*op, index, sharding);
  }
}

std::vector<TensorSharding> blockArgOwnerShardings(const Operation& op) {
  if (op.is("sdy.named_computation"))
    return perValueList(op, "in_shardings");
  if (!op.is("sdy.manual_computation"))
    return {};
  std::vector<std::string> manual = manualAxesOf(op);
  std::vector<TensorSharding> list = perValueList(op, "in_shardings");
  for (TensorSharding& sharding : list)
    sharding = eraseManualAxes(sharding, manual);
  return list;
}

std::vector<TensorSharding> resultOwnerShardings(const Operation& op) {
  if (isRegionDataFlowOp(op))
    return perValueList(op, "out_shardings");
  return isDataFlowOp(op) ? shardingsOf(op) : std::vector<TensorSharding>{};
}

void setBlockArgOwnerShardings(Operation& op, std::vector<TensorSharding> shardings) {
  if (op.is("sdy.manual_computation")) {
    std::vector<std::string> manual = manualAxesOf(op);
    std::vector<TensorSharding> outer = perValueList(op, "in_shardings");
    for (size_t i = 0; i < shardings.size() && i < outer.size(); ++i)
      shardings[i] = addFreeAxes(outer[i], shardings[i], manual);
  }
  if (isRegionDataFlowOp(op))
    setPerValueList(op, "in_shardings", std::move(shardings), /*inherent=*/true);
}

void setResultOwnerShardings(Operation& op, std::vector<TensorSharding> shardings) {
  if (isRegionDataFlowOp(op))
    setPerValueList(op, "out_shardings", std::move(shardings), /*inherent=*/true);
  else if (!shardings.empty())
    setPerValueList(op, "sdy.sharding", std::move(shardings), /*inherent=*/false);
}

std::vector<std::string> manualAxesOf(const Operation& op) {
  if (const auto* axes = op.attr("manual_axes").as<ir::ManualAxesAttr>())
    return axes->axes;
  return {};
}

std::vector<TensorSharding> shardingsOf(const Operation& op) {
  return perValueList(op, "sdy.sharding");
}

int64_t rankOf(const Value& value) {
  ir::Type type = value.type();
  return type.isTensor() ? type.rank() : 0;
}

Operation* insertAfterValue(const Value& value, std::unique_ptr<Operation> op) {
  if (Operation* def = value.definingOp()) {
    auto next = std::next(positionOf(*def));
    Operation* before = next == def->parentBlock()->ops().end() ? nullptr : next->get();
    return def->parentBlock()->insertBefore(before, std::move(op));
  }
  ir::Block* block = value.ownerBlock();
  Operation* front = block->empty() ? nullptr : block->ops().front().get();
  return block->insertBefore(front, std::move(op));
}

void moveAfterValue(Operation& op, const Value& value) {
  std::unique_ptr<Operation> owned = op.parentBlock()->take(&op);
  insertAfterValue(value, std::move(owned));
}

void replaceAllUsesExcept(Value& from, Value* to, const Operation* except) {
  std::vector<ir::Use> uses = from.uses();
  for (const ir::Use& use : uses)
    if (use.user != except)
      use.user->setOperand(use.index, to);
}

bool isBeforeInBlock(const Operation& a, const Operation& b) {
  if (a.parentBlock() != b.parentBlock() || &a == &b)
    return false;
  for (const auto& op : a.parentBlock()->ops()) {
    if (op.get() == &a)
      return true;
    if (op.get() == &b)
      return false;
  }
  return false;
}

std::vector<Operation*> postOrderOps(Operation& root) {
  std::vector<Operation*> out;
  collectPostOrder(root, out);
  return out;
}

std::vector<Operation*> preOrderOps(Operation& root) {
  std::vector<Operation*> out;
  root.walk([&](Operation& op) {
    if (&op != &root)
      out.push_back(&op);
  });
  return out;
}

} // namespace shardscope::propagation
