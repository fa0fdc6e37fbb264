#include "core/partition/reshard_to_collectives.h"

#include "core/partition/reshard_plan.h"
#include "core/propagation/import_data_flow.h"
#include "core/sharding/notation.h"
#include "core/sharding/value_sharding.h"

#include <algorithm>

namespace shardscope::partition {
namespace {

using ir::Attribute;
using ir::Operation;
using ir::TensorSharding;

DimAxes axesOf(const TensorSharding& sharding) {
  DimAxes dims;
  for (const ir::DimensionSharding& dim : sharding.dims)
    dims.push_back(dim.axes);
  return dims;
}

bool fullyReplicated(const TensorSharding& sharding) {
  return std::all_of(sharding.dims.begin(), sharding.dims.end(),
                     [](const ir::DimensionSharding& d) { return d.axes.empty(); });
}

// The closed sharding `dims` on the mesh (and with the unreduced axes) of `base`: the
// `out_sharding` Shardy gives each collective of the chain.
TensorSharding withDims(const TensorSharding& base, const DimAxes& dims) {
  TensorSharding out;
  out.meshName = base.meshName;
  out.inlineMesh = base.inlineMesh;
  out.unreducedAxes = base.unreducedAxes;
  out.unreducedKind = base.unreducedKind;
  for (const auto& axes : dims)
    out.dims.push_back(ir::DimensionSharding{axes, true, std::nullopt});
  return out;
}

const char* opName(CollectiveStep::Kind kind) {
  switch (kind) {
  case CollectiveStep::Kind::AllSlice: return "sdy.all_slice";
  case CollectiveStep::Kind::AllToAll: return "sdy.all_to_all";
  case CollectiveStep::Kind::AllGather: return "sdy.all_gather";
  case CollectiveStep::Kind::CollectivePermute: return "sdy.collective_permute";
  }
  return "";
}

void setInherentAttr(Operation& op, std::string_view name, Attribute value) {
  op.setAttr(name, std::move(value));
  op.setInherent(name, true);
}

// Inserts the collective for `step` before `anchor`, applied to `input`; returns its result.
ir::Value* insertStep(Operation& anchor, ir::Value* input, const CollectiveStep& step,
                      const TensorSharding& base, const InsertedCollective& cause,
                      std::vector<InsertedCollective>* log) {
  std::vector<ir::Value*> operands{input};
  std::vector<ir::Type> types{anchor.result(0)->type()};
  auto op = Operation::create(opName(step.kind), operands, types, anchor.loc());
  if (step.kind == CollectiveStep::Kind::AllGather)
    setInherentAttr(*op, "gathering_axes", Attribute::axisRefListList(step.axes));
  else if (step.kind == CollectiveStep::Kind::AllSlice)
    setInherentAttr(*op, "slicing_axes", Attribute::axisRefListList(step.axes));
  else if (step.kind == CollectiveStep::Kind::AllToAll)
    setInherentAttr(*op, "params", Attribute::allToAllParams(step.params));
  setInherentAttr(*op, "out_sharding", Attribute::sharding(withDims(base, step.result)));
  Operation* inserted = anchor.parentBlock()->insertBefore(&anchor, std::move(op));
  if (log) {
    InsertedCollective entry = cause;
    entry.op = inserted;
    entry.reason = step.reason;
    log->push_back(std::move(entry));
  }
  return inserted->result(0);
}

void replaceAndErase(Operation& reshard, ir::Value* with) {
  reshard.result(0)->replaceAllUsesWith(with);
  reshard.dropAllReferences();
  reshard.parentBlock()->erase(&reshard);
}

// A propagation barrier doesn't change the value; Shardy's collectives read its operand.
ir::Value* throughBarrier(ir::Value* value) {
  Operation* def = value->definingOp();
  while (def && def->is("sdy.propagation_barrier")) {
    value = def->operand(0);
    def = value->definingOp();
  }
  return value;
}

// The sharding of the reshard's input, including block arguments of ops (like `stablehlo.while`)
// whose results carry the shardings of their region arguments.
std::optional<TensorSharding> inputSharding(const ir::Value& value) {
  if (std::optional<TensorSharding> sharding = sharding::valueSharding(value))
    return sharding;
  if (const TensorSharding* sharding = ir::shardingOf(value))
    return *sharding;
  return std::nullopt;
}

bool isMaximal(const ir::Module& module, const TensorSharding& sharding) {
  const ir::Mesh* mesh = ir::resolveMesh(module, sharding);
  return mesh && sharding::MeshView(*mesh).isMaximal();
}

// Meshes with the same axes, possibly in another device order, can be resharded between.
bool equivalentOnMesh(const ir::Module& module, const TensorSharding& a, const TensorSharding& b) {
  if (a.meshName == b.meshName && !a.inlineMesh && !b.inlineMesh)
    return true;
  const ir::Mesh* ma = ir::resolveMesh(module, a);
  const ir::Mesh* mb = ir::resolveMesh(module, b);
  return ma && mb && ma->axes == mb->axes;
}

// The input's sharding, or a replicated one on the target's mesh when it has none.
TensorSharding inputShardingOrReplicated(const ir::Value& input, const TensorSharding& out) {
  if (std::optional<TensorSharding> in = inputSharding(input))
    return *in;
  TensorSharding in = withDims(out, DimAxes(out.dims.size()));
  in.unreducedAxes.clear();
  return in;
}

bool rewriteReshard(ir::Module& module, Operation& reshard,
                    const ReshardToCollectivesOptions& options,
                    std::vector<InsertedCollective>* log) {
  const auto* outAttr = reshard.attr("sharding").as<ir::ShardingAttr>();
  if (!outAttr)
    return false;
  TensorSharding out = outAttr->sharding;
  ir::Value* input = throughBarrier(reshard.operand(0));
  TensorSharding in = inputShardingOrReplicated(*input, out);
  if (in.dims.size() != out.dims.size() || isMaximal(module, in) || isMaximal(module, out))
    return true; // Shardy leaves reshards it can't express (e.g. to/from one device) alone.
  if (fullyReplicated(out) && out.unreducedAxes.empty()) {
    if (fullyReplicated(in)) {
      if (!options.keepRedundantReshards || !in.unreducedAxes.empty())
        replaceAndErase(reshard, input);
      return true;
    }
    out = withDims(in, DimAxes(in.dims.size())); // gather everything on the input's mesh
  }
  if (!equivalentOnMesh(module, in, out))
    return true;
  if (options.keepRedundantReshards && axesOf(in) == axesOf(out) && in.meshName == out.meshName)
    return true;
  const ir::Mesh* mesh = ir::resolveMesh(module, in);
  ir::Type type = reshard.result(0)->type();
  if (!mesh || !type.isTensor())
    return true;
  std::vector<CollectiveStep> steps = planReshardCollectives(
      axesOf(in), axesOf(out), type.shape(), sharding::MeshView(*mesh),
      in.meshName != out.meshName);
  TensorSharding inBase = withDims(in, {});
  inBase.unreducedAxes = out.unreducedAxes;
  inBase.unreducedKind = out.unreducedKind;
  TensorSharding outBase = withDims(out, {});
  InsertedCollective cause;
  if (log) {
    cause.producerSharding = sharding::shardyNotation(in);
    cause.neededSharding = sharding::shardyNotation(outAttr->sharding);
    cause.producer = input->definingOp();
    if (!reshard.result(0)->uses().empty())
      cause.consumer = reshard.result(0)->uses().front().user;
  }
  ir::Value* current = input;
  for (const CollectiveStep& step : steps)
    current = insertStep(reshard, current, step, step.onTargetMesh ? outBase : inBase, cause, log);
  replaceAndErase(reshard, current);
  return true;
}

} // namespace

bool reshardToCollectives(ir::Module& module, const ReshardToCollectivesOptions& options,
                          support::DiagnosticSink& sink, std::vector<InsertedCollective>* log) {
  std::vector<Operation*> reshards;
  for (Operation* op : propagation::preOrderOps(module.op()))
    if (op->is("sdy.reshard"))
      reshards.push_back(op);
  for (Operation* op : reshards)
    if (!rewriteReshard(module, *op, options, log)) {
      sink.error(op->loc(), "sdy.reshard without a sharding");
      return false;
    }
  return true;
}

} // namespace shardscope::partition
