#include "core/analysis/shard_map_analysis.h"

#include <algorithm>

namespace shardscope::analysis {

namespace {

void reportLocalTypes(const ManualComputationView& view, support::DiagnosticSink& sink) {
  auto report = [&](const std::vector<LocalValueView>& side, const char* what) {
    for (const LocalValueView& v : side)
      if (!v.problem.empty())
        sink.error(view.op->loc(), std::string("manual computation ") + what + " " +
                                       std::to_string(v.index) + ": " + v.problem);
  };
  report(view.arguments, "operand");
  report(view.results, "result");
}

// The first axis of `axes` that is not manual in `view`, or null.
const std::string* firstFreeAxis(const std::vector<std::string>& axes,
                                 const ManualComputationView& view) {
  std::vector<std::string> manual = view.scopeAxes();
  for (const std::string& axis : axes)
    if (std::find(manual.begin(), manual.end(), axis) == manual.end())
      return &axis;
  return nullptr;
}

void reportCollectives(const VarianceAnalysis& variance, const ManualComputationView& view,
                       support::DiagnosticSink& sink) {
  for (const CollectiveUse& use : variance.collectives()) {
    if (use.manualComputation != view.op || use.match.matched)
      continue;
    // Groups that run along mesh axes of which some are free here: JAX binds only the manual
    // axes inside a shard_map, so it rejected such a collective when it was traced.
    if (!use.op->is("stablehlo.collective_permute") && view.mesh.mesh) {
      std::vector<std::string> all;
      for (const ir::MeshAxis& axis : view.mesh.mesh->axes)
        all.push_back(axis.name);
      AxesMatch anyAxes = matchReplicaGroups(use.op->attr("replica_groups"), view.mesh, all);
      if (anyAxes.matched)
        if (const std::string* free = firstFreeAxis(anyAxes.axes, view)) {
          sink.error(use.op->loc(), "Found an unbound axis name: " + *free +
                                        ". To fix this, please call " +
                                        jaxCollectiveName(*use.op, use.kind) +
                                        " under `jax.shard_map`.");
          continue;
        }
    }
    sink.warning(use.op->loc(), "cannot map the devices of '" + std::string(use.op->name()) +
                                    "' to manual axes: " + use.match.problem);
  }
}

// JAX's repr of a mesh's axes and types: `'i': 2, 'j': 2, axis_types=(Manual, Auto)`.
std::string meshRepr(const ir::Mesh& mesh, const std::vector<std::string>& manual) {
  std::string axes, types;
  for (const ir::MeshAxis& axis : mesh.axes) {
    axes += (axes.empty() ? "'" : ", '") + axis.name + "': " + std::to_string(axis.size);
    bool isManual = std::find(manual.begin(), manual.end(), axis.name) != manual.end();
    types += (types.empty() ? "" : ", ") + std::string(isManual ? "Manual" : "Auto");
  }
  if (mesh.axes.size() == 1)
    types += ",";
  return (axes.empty() ? "()" : axes) + ", axis_types=(" + types + ")";
}

// `_shmap_checks`: a shard_map nested in another runs in the outer one's mesh context, and JAX
// refuses a different mesh there.
void reportNestedMesh(const VarianceAnalysis& variance, const ManualComputationView& view,
                      support::DiagnosticSink& sink) {
  const ManualComputationView* outer = view.parent ? variance.viewOf(*view.parent) : nullptr;
  if (!outer || !outer->mesh.mesh || !view.mesh.mesh)
    return;
  auto shape = [](const ir::Mesh& m) {
    std::vector<std::pair<std::string, int64_t>> out;
    for (const ir::MeshAxis& axis : m.axes)
      out.emplace_back(axis.name, axis.size);
    return out;
  };
  if (shape(*outer->mesh.mesh) == shape(*view.mesh.mesh))
    return;
  sink.error(view.op->loc(), "The context mesh AbstractMesh(" +
                                 meshRepr(*outer->mesh.mesh, outer->scopeAxes()) +
                                 ") should match the mesh passed to shard_map Mesh(" +
                                 meshRepr(*view.mesh.mesh, {}) + ")");
}

} // namespace

ShardMapAnalysis analyzeShardMaps(const ir::Module& module, support::DiagnosticSink& sink) {
  ShardMapAnalysis result{VarianceAnalysis::run(module), {}};
  result.replicationErrors = checkReplication(result.variance);
  for (const ManualComputationView& view : result.variance.manualComputations()) {
    reportLocalTypes(view, sink);
    reportNestedMesh(result.variance, view, sink);
    reportCollectives(result.variance, view, sink);
    for (const ReplicationError& error : result.replicationErrors)
      if (error.manualComputation == view.op)
        sink.report(replicationDiagnostic(error, view));
  }
  return result;
}

} // namespace shardscope::analysis
