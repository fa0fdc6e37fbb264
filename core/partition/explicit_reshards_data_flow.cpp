#include "core/partition/explicit_reshards_data_flow.h"

#include "core/partition/explicit_reshards_unreduced.h"
#include "core/partition/explicit_reshards_util.h"
#include "core/sharding/sharding_equivalence.h"
#include "core/sharding/value_sharding.h"

#include <utility>
#include <vector>

namespace shardscope::partition {
namespace {

using ir::TensorSharding;

// The edge sources of result `i`: (user op, operand index) pairs.
std::vector<std::pair<ir::Operation*, unsigned>> edgeSources(ir::Operation& op, unsigned i) {
  std::vector<std::pair<ir::Operation*, unsigned>> sources;
  auto terminatorOf = [](ir::Region& region) -> ir::Operation* {
    if (region.blocks().empty() || region.front().ops().empty())
      return nullptr;
    return region.front().ops().back().get();
  };
  if (op.is("stablehlo.while") || op.is("stablehlo.optimization_barrier"))
    sources.emplace_back(&op, i);
  if (op.is("stablehlo.while")) {
    if (op.numRegions() > 1)
      if (ir::Operation* ret = terminatorOf(op.region(1)); ret && i < ret->numOperands())
        sources.emplace_back(ret, i);
  } else if (op.is("stablehlo.case") || op.is("stablehlo.if")) {
    for (unsigned r = 0; r < op.numRegions(); ++r)
      if (ir::Operation* ret = terminatorOf(op.region(r)); ret && i < ret->numOperands())
        sources.emplace_back(ret, i);
  }
  return sources;
}

// The op before which something computed from `value` goes: just after its definition, or at
// the start of its block for a block argument.
ir::Operation* pointAfterValue(ir::Value* value) {
  if (ir::Operation* def = value->definingOp())
    return nextOp(*def);
  if (ir::Block* block = value->ownerBlock(); block && !block->ops().empty())
    return block->ops().begin()->get();
  return nullptr;
}

// Shardy's fully closed sharding like `sharding`: same mesh and rank, nothing sharded.
TensorSharding closedLike(const TensorSharding& sharding) {
  return replicatedOn(sharding.meshName, static_cast<int64_t>(sharding.dims.size()));
}

// Shardy's edge update: all-reduce the unreduced axes the target doesn't keep, then reshard to
// the target when the shardings still differ, both right after the source's definition.
void reshardEdgeSource(const ir::Module& module, ir::Operation& user, unsigned index,
                       const std::optional<TensorSharding>& target) {
  ir::Value* source = user.operand(index);
  if (!source->type().isTensor())
    return;
  if (ir::Operation* at = pointAfterValue(source))
    allReduceUnreducedOperand(module, user, index, target, at);
  source = user.operand(index);
  const std::optional<TensorSharding> current = sharding::valueSharding(*source);
  if (sharding::equivalentShardings(current, target))
    return;
  ir::Operation* at = pointAfterValue(source);
  if (!at)
    return;
  ir::Operation* reshard =
      insertReshardBefore(*at, source, target ? *target : closedLike(*current));
  user.setOperand(index, reshard->result(0));
}

// A manual computation's edges: each result takes its `sdy.return` operand (seen from the body,
// without the manual axes), and each body argument takes its operand (seen globally).
void reshardManualComputationEdges(const ir::Module& module, ir::Operation& op) {
  const auto* outs = op.attr("out_shardings").as<ir::ShardingPerValueAttr>();
  const auto* ins = op.attr("in_shardings").as<ir::ShardingPerValueAttr>();
  if (op.numRegions() == 0 || op.region(0).blocks().empty() || op.region(0).front().ops().empty())
    return;
  ir::Operation* ret = op.region(0).front().ops().back().get();
  for (unsigned i = 0; outs && i < outs->shardings.size() && i < ret->numOperands(); ++i)
    reshardEdgeSource(module, *ret, i, sharding::withoutManualAxes(outs->shardings[i], op));
  for (unsigned i = 0; ins && i < ins->shardings.size() && i < op.numOperands(); ++i)
    reshardEdgeSource(module, op, i, ins->shardings[i]);
}

} // namespace

bool isDataFlowOp(const ir::Operation& op) {
  return op.is("stablehlo.while") || op.is("stablehlo.case") || op.is("stablehlo.if") ||
         op.is("stablehlo.optimization_barrier") || op.is("sdy.manual_computation");
}

void reshardDataFlowEdges(const ir::Module& module, ir::Operation& op) {
  if (op.is("sdy.manual_computation")) {
    reshardManualComputationEdges(module, op);
    return;
  }
  for (unsigned i = 0; i < op.numResults(); ++i) {
    if (!op.result(i)->type().isTensor())
      continue;
    const std::optional<TensorSharding> target = sharding::valueSharding(*op.result(i));
    for (auto [user, index] : edgeSources(op, i))
      reshardEdgeSource(module, *user, index, target);
  }
}

void reshardCallOperands(const ir::Module& module, ir::Operation& call) {
  const auto* callee = call.attr("callee").as<ir::SymbolRefAttr>();
  ir::Operation* func =
      callee && !callee->path.empty() ? module.lookupFunction(callee->path.back()) : nullptr;
  if (!func)
    return;
  std::vector<std::optional<TensorSharding>> targets(call.numOperands());
  bool anyArgSharding = false;
  for (unsigned i = 0; i < call.numOperands(); ++i)
    if (const ir::DictionaryAttr* attrs = ir::func::argAttrs(*func, i))
      if (const auto* attr = attrs->get("sdy.sharding").as<ir::ShardingAttr>()) {
        targets[i] = attr->sharding;
        anyArgSharding = true;
      }
  if (!anyArgSharding) {
    std::string meshName;
    for (unsigned i = 0; i < call.numOperands() && meshName.empty(); ++i)
      if (std::optional<TensorSharding> s = sharding::valueSharding(*call.operand(i))) {
        const ir::Mesh* mesh = ir::resolveMesh(module, *s);
        if (mesh && !mesh->axes.empty())
          meshName = s->meshName;
      }
    if (meshName.empty())
      return;
    for (unsigned i = 0; i < call.numOperands(); ++i)
      if (call.operand(i)->type().isTensor())
        targets[i] = replicatedOn(meshName, call.operand(i)->type().rank());
  }
  for (unsigned i = 0; i < call.numOperands(); ++i)
    reshardEdgeSource(module, call, i, targets[i]);
}

} // namespace shardscope::partition
