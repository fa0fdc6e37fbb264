#include "core/partition/reshard_to_collectives.h"

#include "core/partition/detail/cache_key.h"
#include "core/ir/mesh_resolver.h"
#include "core/partition/reshard_plan.h"
#include "core/propagation/import_data_flow.h"
#include "core/sharding/notation.h"
#include "core/sharding/value_sharding.h"

#include <algorithm>
#include <unordered_map>

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

// One planned collective with the attributes of its op. Attributes are immutable and shared, so
// the ops of equal reshards can share them.
struct PreparedStep {
  CollectiveStep step;
  const char* name = "";
  const char* axesName = nullptr; // gathering_axes / slicing_axes / params, if any
  Attribute axes;
  Attribute outSharding;
};

PreparedStep prepareStep(CollectiveStep step, const TensorSharding& base) {
  PreparedStep prepared;
  prepared.name = opName(step.kind);
  if (step.kind == CollectiveStep::Kind::AllGather) {
    prepared.axesName = "gathering_axes";
    prepared.axes = Attribute::axisRefListList(step.axes);
  } else if (step.kind == CollectiveStep::Kind::AllSlice) {
    prepared.axesName = "slicing_axes";
    prepared.axes = Attribute::axisRefListList(step.axes);
  } else if (step.kind == CollectiveStep::Kind::AllToAll) {
    prepared.axesName = "params";
    prepared.axes = Attribute::allToAllParams(step.params);
  }
  prepared.outSharding = Attribute::sharding(withDims(base, step.result));
  prepared.step = std::move(step);
  return prepared;
}

// Inserts the collective for `step` before `anchor`, applied to `input`; returns its result.
ir::Value* insertStep(Operation& anchor, ir::Value* input, const PreparedStep& step,
                      const InsertedCollective& cause, std::vector<InsertedCollective>* log) {
  std::vector<ir::Value*> operands{input};
  std::vector<ir::Type> types{anchor.result(0)->type()};
  auto op = Operation::create(step.name, operands, types, anchor.loc());
  if (step.axesName)
    setInherentAttr(*op, step.axesName, step.axes);
  setInherentAttr(*op, "out_sharding", step.outSharding);
  Operation* inserted = anchor.parentBlock()->insertBefore(&anchor, std::move(op));
  if (log) {
    InsertedCollective entry = cause;
    entry.op = inserted;
    entry.reason = step.step.reason;
    log->push_back(std::move(entry));
  }
  return inserted->result(0);
}

// The prepared steps of each distinct reshard: a large program reshards between the same few
// shardings over and over, and planning (with its sub-axis alignment) dominates the pass.
class PlanCache {
public:
  // The steps taking `in` to `out` (see rewriteReshard) for a tensor of `shape` on `mesh`.
  const std::vector<PreparedStep>& plan(const TensorSharding& in, const TensorSharding& out,
                                        std::span<const int64_t> shape, const ir::Mesh& mesh) {
    // Inline meshes have no stable name to key on; they are rare, so they are planned each time.
    if (in.inlineMesh || out.inlineMesh) {
      m_uncached = build(in, out, shape, mesh);
      return m_uncached;
    }
    // Everything `build` reads; the mesh follows from `in.meshName`.
    detail::CacheKey key;
    key.add(in.meshName).add(out.meshName).add(shape).add(out.unreducedAxes).add(out.unreducedKind);
    for (const auto* s : {&in, &out}) {
      key.add(static_cast<int64_t>(s->dims.size()));
      for (const ir::DimensionSharding& dim : s->dims)
        key.add(dim.axes);
    }
    auto it = m_plans.find(key.bytes());
    if (it == m_plans.end())
      it = m_plans.emplace(key.take(), build(in, out, shape, mesh)).first;
    return it->second;
  }

private:
  static std::vector<PreparedStep> build(const TensorSharding& in, const TensorSharding& out,
                                         std::span<const int64_t> shape, const ir::Mesh& mesh) {
    std::vector<CollectiveStep> steps = planReshardCollectives(
        axesOf(in), axesOf(out), shape, sharding::MeshView(mesh), in.meshName != out.meshName);
    TensorSharding inBase = withDims(in, {});
    inBase.unreducedAxes = out.unreducedAxes;
    inBase.unreducedKind = out.unreducedKind;
    TensorSharding outBase = withDims(out, {});
    std::vector<PreparedStep> prepared;
    for (CollectiveStep& step : steps) {
      bool onTarget = step.onTargetMesh;
      prepared.push_back(prepareStep(std::move(step), onTarget ? outBase : inBase));
    }
    return prepared;
  }

  std::unordered_map<std::string, std::vector<PreparedStep>> m_plans;
  std::vector<PreparedStep> m_uncached;
};

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

bool isMaximal(ir::MeshResolver& meshOf, const TensorSharding& sharding) {
  const ir::Mesh* mesh = meshOf(sharding);
  return mesh && sharding::MeshView(*mesh).isMaximal();
}

// Meshes with the same axes, possibly in another device order, can be resharded between.
bool equivalentOnMesh(ir::MeshResolver& meshOf, const TensorSharding& a,
                      const TensorSharding& b) {
  if (a.meshName == b.meshName && !a.inlineMesh && !b.inlineMesh)
    return true;
  const ir::Mesh* ma = meshOf(a);
  const ir::Mesh* mb = meshOf(b);
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

bool rewriteReshard(ir::MeshResolver& meshOf, Operation& reshard,
                    const ReshardToCollectivesOptions& options, PlanCache& plans,
                    std::vector<InsertedCollective>* log) {
  const auto* outAttr = reshard.attr("sharding").as<ir::ShardingAttr>();
  if (!outAttr)
    return false;
  TensorSharding out = outAttr->sharding;
  ir::Value* input = throughBarrier(reshard.operand(0));
  TensorSharding in = inputShardingOrReplicated(*input, out);
  if (in.dims.size() != out.dims.size() || isMaximal(meshOf, in) || isMaximal(meshOf, out))
    return true; // Shardy leaves reshards it can't express (e.g. to/from one device) alone.
  if (fullyReplicated(out) && out.unreducedAxes.empty()) {
    if (fullyReplicated(in)) {
      if (!options.keepRedundantReshards || !in.unreducedAxes.empty())
        replaceAndErase(reshard, input);
      return true;
    }
    out = withDims(in, DimAxes(in.dims.size())); // gather everything on the input's mesh
  }
  if (!equivalentOnMesh(meshOf, in, out))
    return true;
  if (options.keepRedundantReshards && axesOf(in) == axesOf(out) && in.meshName == out.meshName)
    return true;
  const ir::Mesh* mesh = meshOf(in);
  ir::Type type = reshard.result(0)->type();
  if (!mesh || !type.isTensor())
    return true;
  const std::vector<PreparedStep>& steps = plans.plan(in, out, type.shape(), *mesh);
  InsertedCollective cause;
  if (log) {
    cause.producerSharding = sharding::shardyNotation(in);
    cause.neededSharding = sharding::shardyNotation(outAttr->sharding);
    cause.producer = input->definingOp();
    if (!reshard.result(0)->uses().empty())
      cause.consumer = reshard.result(0)->uses().front().user;
  }
  ir::Value* current = input;
  for (const PreparedStep& step : steps)
    current = insertStep(reshard, current, step, cause, log);
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
  PlanCache plans;
  ir::MeshResolver meshOf(module);
  for (Operation* op : reshards)
    if (!rewriteReshard(meshOf, *op, options, plans, log)) {
      sink.error(op->loc(), "sdy.reshard without a sharding");
      return false;
    }
  return true;
}

} // namespace shardscope::partition
