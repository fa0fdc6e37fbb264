// `-sdy-manual-axes-cleanup`, after Shardy's manual_axes_cleanup.cc.
#include "core/propagation/import_manual_axes_cleanup.h"

#include "core/propagation/import_data_flow.h"
#include "core/sharding/axis_refs.h"
#include "core/sharding/mesh_view.h"

#include <algorithm>

namespace shardscope::propagation {

namespace {

using ir::Operation;
using ir::TensorSharding;

bool isEmptyMesh(const ir::Mesh* mesh) {
  return !mesh || (mesh->axes.empty() && mesh->deviceIds.empty());
}

// The first sharding bound to a non-empty mesh: the mesh all shardings of the op share.
const TensorSharding* commonMeshSharding(const ir::Module& module,
                                         const std::vector<TensorSharding>& in,
                                         const std::vector<TensorSharding>& out) {
  for (const auto* list : {&in, &out})
    for (const TensorSharding& s : *list)
      if (!isEmptyMesh(ir::resolveMesh(module, s)))
        return &s;
  return nullptr;
}

// What every in/out sharding of one manual computation is completed with.
struct ManualAxesContext {
  std::vector<std::string> manualAxes; ///< in mesh order
  const ir::Module& module;
  TensorSharding common; ///< a sharding on the computation's (non-empty) mesh
  sharding::MeshView mesh;
};

// Adds the parts of the manual axes `s` doesn't use (in any dimension, replicated or unreduced)
// to its replicated axes, sorted and merged in mesh order; a changed sharding moves to the
// computation's mesh. Returns true when `s` changed.
bool replicateUnusedManualAxes(TensorSharding& s, const ManualAxesContext& ctx) {
  std::vector<ir::AxisRef> manual;
  for (const std::string& axis : ctx.manualAxes)
    manual.push_back(ir::AxisRef{axis, std::nullopt});
  std::vector<ir::AxisRef> used = s.replicatedAxes;
  used.insert(used.end(), s.unreducedAxes.begin(), s.unreducedAxes.end());
  for (const ir::DimensionSharding& dim : s.dims)
    used.insert(used.end(), dim.axes.begin(), dim.axes.end());
  std::vector<ir::AxisRef> unused = sharding::axisRefSetDiff(manual, used, ctx.mesh);
  if (unused.empty())
    return false;
  std::vector<ir::AxisRef> replicated = s.replicatedAxes;
  replicated.insert(replicated.end(), unused.begin(), unused.end());
  s.replicatedAxes = sharding::sortAndMerge(std::move(replicated), ctx.mesh);
  s.meshName = ctx.common.meshName;
  s.inlineMesh = ctx.common.inlineMesh;
  return true;
}

// Completes the shardings of list `name` whose values (of `types`) are tensors.
void cleanupList(Operation& op, std::string_view name, const std::vector<ir::Type>& types,
                 const ManualAxesContext& ctx) {
  std::vector<TensorSharding> list = op.attr(name).as<ir::ShardingPerValueAttr>()->shardings;
  bool changed = false;
  for (size_t i = 0; i < list.size() && i < types.size(); ++i)
    if (types[i].isTensor())
      changed = replicateUnusedManualAxes(list[i], ctx) || changed;
  if (changed)
    op.setAttr(name, ir::Attribute::shardingPerValue(std::move(list)));
}

bool hasNonTerminatorOps(const Operation& op) {
  return op.numRegions() == 1 && !op.region(0).empty() && op.region(0).front().ops().size() > 1;
}

bool cleanupManualComputation(Operation& op, const ir::Module& module,
                              support::DiagnosticSink& sink) {
  const auto* in = op.attr("in_shardings").as<ir::ShardingPerValueAttr>();
  const auto* out = op.attr("out_shardings").as<ir::ShardingPerValueAttr>();
  std::vector<std::string> manualAxes = manualAxesOf(op);
  if (!in || !out || (in->shardings.empty() && out->shardings.empty())) {
    // Nothing to state the manual axes on.
    if (manualAxes.empty() || !hasNonTerminatorOps(op))
      return true;
    sink.error(op.loc(), "'sdy.manual_computation' op has manual_axes when there are no in/out "
                         "shardings and the body is not empty");
    return false;
  }
  const TensorSharding* common = commonMeshSharding(module, in->shardings, out->shardings);
  const ir::Mesh* meshDef = common ? ir::resolveMesh(module, *common) : nullptr;
  if (!meshDef)
    return true; // the verifier reports shardings without a usable mesh
  ManualAxesContext ctx{std::move(manualAxes), module, *common, sharding::MeshView(*meshDef)};
  std::stable_sort(ctx.manualAxes.begin(), ctx.manualAxes.end(), [&](const auto& a, const auto& b) {
    return ctx.mesh.axisIndex(a).value_or(SIZE_MAX) < ctx.mesh.axisIndex(b).value_or(SIZE_MAX);
  });
  op.setAttr("manual_axes", ir::Attribute::manualAxes(ctx.manualAxes));
  cleanupList(op, "in_shardings", ir::operandTypes(op), ctx);
  cleanupList(op, "out_shardings", ir::resultTypes(op), ctx);
  return true;
}

} // namespace

bool cleanupManualAxes(ir::Module& module, support::DiagnosticSink& sink) {
  for (Operation* op : postOrderOps(module.op()))
    if (op->is("sdy.manual_computation") && !cleanupManualComputation(*op, module, sink))
      return false;
  return true;
}

} // namespace shardscope::propagation
