#include "core/propagation/propagate_values.h"

#include "core/ir/attribute.h"
#include "core/propagation/import_data_flow.h"
#include "core/propagation/import_sharding_utils.h"

namespace shardscope::propagation {

using ir::Operation;
using ir::TensorSharding;
using ir::Value;

namespace {

const ir::Block* entryBlock(const Operation& op, unsigned region) {
  if (op.numRegions() <= region || op.region(region).empty())
    return nullptr;
  return op.region(region).blocks().front().get();
}

Value* terminatorOperand(const Operation& op, unsigned region, unsigned index) {
  const ir::Block* block = entryBlock(op, region);
  Operation* term = block ? block->back() : nullptr;
  return term && index < term->numOperands() ? term->operand(index) : nullptr;
}

Value* operandOrNull(const Operation& op, unsigned index) {
  return index < op.numOperands() ? op.operand(index) : nullptr;
}

Value* resultOrNull(const Operation& op, unsigned index) {
  return index < op.numResults() ? op.result(index) : nullptr;
}

std::optional<TensorSharding> perValueAt(const Operation& op, std::string_view name,
                                         unsigned index) {
  const auto* list = op.attr(name).as<ir::ShardingPerValueAttr>();
  if (!list || index >= list->shardings.size())
    return std::nullopt;
  return list->shardings[index];
}

} // namespace

bool isTerminatorOp(const Operation& op) {
  return op.is("func.return") || op.is("stablehlo.return") || op.is("sdy.return");
}

Operation* dataFlowEdgeOfSource(const Operation& user, unsigned index) {
  Value* owner = nullptr;
  if (isRegionDataFlowOp(user)) {
    const ir::Block* body = entryBlock(user, 0);
    owner = body && index < body->numArguments() ? body->argument(index) : nullptr;
  } else if (isDataFlowOp(user)) {
    owner = resultOrNull(user, index);
  } else if (user.is("stablehlo.return") && user.parentOp() && isDataFlowOp(*user.parentOp())) {
    owner = resultOrNull(*user.parentOp(), index);
  }
  return dataFlowEdgeUser(owner);
}

std::vector<Value*> dataFlowSources(const Operation& edge) {
  Value* input = operandOrNull(edge, 0);
  Operation* owner = input ? owningOp(*input) : nullptr;
  if (!owner)
    return {};
  unsigned i = input->index();
  std::vector<Value*> sources;
  auto add = [&](Value* v) {
    if (v)
      sources.push_back(v);
  };
  if (isRegionDataFlowOp(*owner)) {
    add(input->isBlockArgument() ? operandOrNull(*owner, i) : terminatorOperand(*owner, 0, i));
  } else if (owner->is("stablehlo.case")) {
    for (unsigned r = 0; r < owner->numRegions(); ++r)
      add(terminatorOperand(*owner, r, i));
  } else if (owner->is("stablehlo.optimization_barrier")) {
    add(operandOrNull(*owner, i));
  } else if (owner->is("stablehlo.while")) {
    add(operandOrNull(*owner, i));
    add(terminatorOperand(*owner, 1, i)); // the body's yielded value
  }
  return sources;
}

std::vector<Value*> nonOwnerTargets(const Operation& edge) {
  Value* input = operandOrNull(edge, 0);
  Operation* owner = input ? input->definingOp() : nullptr;
  if (!owner || !owner->is("stablehlo.while"))
    return {};
  std::vector<Value*> targets;
  for (unsigned r = 0; r < owner->numRegions(); ++r) {
    const ir::Block* block = entryBlock(*owner, r);
    if (block && input->index() < block->numArguments())
      targets.push_back(block->argument(input->index()));
  }
  return targets;
}

std::optional<TensorSharding> transformEdgeSharding(const Operation& edge,
                                                    std::optional<TensorSharding> sharding,
                                                    EdgeTransform transform) {
  Value* input = operandOrNull(edge, 0);
  Operation* owner = input ? owningOp(*input) : nullptr;
  if (!sharding || !owner || !owner->is("sdy.manual_computation"))
    return sharding;
  std::vector<std::string> manual = manualAxesOf(*owner);
  bool blockArg = input->isBlockArgument();
  // A body argument's edge stores the body view (no manual axes) while its source, the operand,
  // is outside; a result's edge stores the outside view while its source is yielded inside.
  bool toOutside = (transform == EdgeTransform::BeforePropagation) == blockArg;
  if (!toOutside)
    return eraseManualAxes(*sharding, manual);
  std::optional<TensorSharding> outer =
      perValueAt(*owner, blockArg ? "in_shardings" : "out_shardings", input->index());
  return outer ? addFreeAxes(*outer, *sharding, manual) : sharding;
}

std::string calleeName(const Operation& call) {
  const auto* callee = call.attr("callee").as<ir::SymbolRefAttr>();
  return callee && !callee->path.empty() ? callee->path.back() : std::string();
}

CallGraph::CallGraph(const ir::Module& module) : m_module(module) {
  const_cast<Operation&>(module.op()).walk([&](Operation& op) {
    if (op.is("func.call"))
      m_callsTo[calleeName(op)].push_back(&op);
  });
}

namespace {

Operation* funcEdgeUser(const Value* value) {
  if (!value || value->uses().size() != 1)
    return nullptr;
  Operation* user = value->uses().front().user;
  return user->is("sdy.func_data_flow_edge") ? user : nullptr;
}

} // namespace

std::vector<Value*> CallGraph::funcEdgeSources(const Operation& edge) const {
  Value* input = operandOrNull(edge, 0);
  Operation* owner = input ? owningOp(*input) : nullptr;
  std::vector<Value*> sources;
  if (!owner)
    return sources;
  unsigned i = input->index();
  if (input->isBlockArgument() && owner->is("func.func")) {
    auto it = m_callsTo.find(std::string(ir::func::name(*owner)));
    if (it != m_callsTo.end())
      for (Operation* call : it->second)
        if (Value* v = operandOrNull(*call, i))
          sources.push_back(v);
  } else if (owner->is("func.call")) {
    Operation* callee = m_module.lookupFunction(calleeName(*owner));
    if (Value* v = callee ? terminatorOperand(*callee, 0, i) : nullptr)
      sources.push_back(v);
  }
  return sources;
}

Operation* CallGraph::argEdgeOfCallOperand(const Operation& call, unsigned index) const {
  Operation* callee = m_module.lookupFunction(calleeName(call));
  const ir::Block* body = callee ? entryBlock(*callee, 0) : nullptr;
  return body && index < body->numArguments() ? funcEdgeUser(body->argument(index)) : nullptr;
}

const std::vector<Operation*>& CallGraph::callsOf(const Operation& fn) const {
  static const std::vector<Operation*> kNone;
  auto it = m_callsTo.find(std::string(ir::func::name(fn)));
  return it == m_callsTo.end() ? kNone : it->second;
}

Operation* CallGraph::calleeOf(const Operation& call) const {
  return m_module.lookupFunction(calleeName(call));
}

std::vector<Operation*> CallGraph::resultEdgesOf(const Operation& fn, unsigned index) const {
  std::vector<Operation*> edges;
  auto it = m_callsTo.find(std::string(ir::func::name(fn)));
  if (it == m_callsTo.end())
    return edges;
  for (Operation* call : it->second)
    if (Operation* edge = funcEdgeUser(resultOrNull(*call, index)))
      edges.push_back(edge);
  return edges;
}

std::optional<TensorSharding> getFuncResultSharding(const Operation& fn, unsigned index) {
  const ir::DictionaryAttr* attrs = ir::func::resultAttrs(fn, index);
  const auto* s = attrs ? attrs->get("sdy.sharding").as<ir::ShardingAttr>() : nullptr;
  return s ? std::optional(s->sharding) : std::nullopt;
}

void setFuncResultSharding(Operation& fn, unsigned index, const TensorSharding& sharding) {
  ir::func::setResultAttr(fn, index, "sdy.sharding", ir::Attribute::sharding(sharding));
}

} // namespace shardscope::propagation
