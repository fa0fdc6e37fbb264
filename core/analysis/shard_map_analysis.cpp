#include "core/analysis/shard_map_analysis.h"

#include "core/analysis/explicit_axis_types.h"
#include "core/analysis/replica_groups.h"
#include "core/sharding/notation.h"

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

// The name JAX's abstract-evaluation rule passes to `_check_axis_names` for a collective: pmax
// and pmin share psum's `_psum_invariant_abstract_eval` (so they say `psum`), and psum_scatter
// binds `reduce_scatter_p`.
std::string unboundAxisApiName(const ir::Operation& op, CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::AllReduce:
    return "psum";
  case CollectiveKind::ReduceScatter:
    return "reduce_scatter";
  default:
    return jaxCollectiveName(op, kind);
  }
}

// The mesh axes a collective's devices run along, whether manual here or not.
AxesMatch axesOnWholeMesh(const CollectiveUse& use, const ManualComputationView& view) {
  std::vector<std::string> all;
  for (const ir::MeshAxis& axis : view.mesh.mesh->axes)
    all.push_back(axis.name);
  if (use.op->is("stablehlo.collective_permute"))
    return matchSourceTargetPairs(use.op->attr("source_target_pairs"), *view.mesh.mesh, all);
  return matchReplicaGroups(use.op->attr("replica_groups"), view.mesh, all);
}

void reportCollectives(const VarianceAnalysis& variance, const ManualComputationView& view,
                       support::DiagnosticSink& sink) {
  for (const CollectiveUse& use : variance.collectives()) {
    if (use.manualComputation != view.op || use.match.matched)
      continue;
    // Devices that run along mesh axes of which some are free here: JAX binds only the manual
    // axes inside a shard_map, so it rejected such a collective when it was traced.
    if (view.mesh.mesh) {
      AxesMatch anyAxes = axesOnWholeMesh(use, view);
      if (anyAxes.matched)
        if (const std::string* free = firstFreeAxis(anyAxes.axes, view)) {
          sink.error(use.op->loc(),
                     "Found an unbound axis name: " + *free + ". To fix this, please call " +
                         unboundAxisApiName(*use.op, use.kind) + " under `jax.shard_map`.");
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

// `_check_unreduced`: unreduced in_specs / out_specs are accepted only when the shard_map is
// manual over every mesh axis; in_specs are checked before out_specs, the first offender raises.
void reportPartialManualUnreduced(const ManualComputationView& view,
                                  support::DiagnosticSink& sink) {
  if (view.freeAxes.empty())
    return;
  auto pyTuple = [](const std::vector<std::string>& names) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i)
      out += (i ? ", '" : "'") + names[i] + "'";
    return "(" + out + (names.size() == 1 ? ",)" : ")");
  };
  for (const auto* side : {&view.arguments, &view.results})
    for (const LocalValueView& v : *side) {
      if (v.sharding.unreducedAxes.empty())
        continue;
      std::string manual;
      for (size_t i = 0; i < view.manualAxes.size(); ++i)
        manual += (i ? ", '" : "'") + view.manualAxes[i] + "'";
      sink.error(view.op->loc(),
                 "unreduced/reduced can only be passed to " +
                     std::string(side == &view.arguments ? "in" : "out") +
                     "_specs when shard_map is in full manual mode. Got mesh axis names " +
                     pyTuple(view.meshAxes) + ", manual_axes: frozenset({" + manual +
                     "}), specs: " + sharding::partitionSpecNotation(v.sharding) +
                     ". Please file a bug at https://github.com/jax-ml/jax/issues.");
      return;
    }
}

// `_check_unreduced`, second rule: in a full-manual computation, unreduced axes must be Explicit
// mesh axes. Checked only where the module says what its axis types are.
void reportUnreducedOnNonExplicitAxes(const ManualComputationView& view, const AxisTypes& types,
                                      support::DiagnosticSink& sink) {
  if (!view.freeAxes.empty() || !view.mesh.mesh)
    return;
  for (const auto* side : {&view.arguments, &view.results})
    for (const LocalValueView& v : *side) {
      bool allExplicit = std::all_of(
          v.sharding.unreducedAxes.begin(), v.sharding.unreducedAxes.end(),
          [&](const ir::AxisRef& axis) { return types.isExplicit(view.mesh.name, axis.name); });
      if (allExplicit)
        continue;
      std::string shape, axisTypes;
      for (size_t i = 0; i < view.mesh.mesh->axes.size(); ++i) {
        const ir::MeshAxis& axis = view.mesh.mesh->axes[i];
        shape += (i ? ", '" : "'") + axis.name + "': " + std::to_string(axis.size);
        axisTypes +=
            (i ? ", " : "") + std::string(axisTypeName(types.typeOf(view.mesh.name, axis.name)));
      }
      if (view.mesh.mesh->axes.size() == 1)
        axisTypes += ",";
      sink.error(view.op->loc(),
                 "unreduced in " + std::string(side == &view.arguments ? "in" : "out") + "_specs " +
                     sharding::partitionSpecNotation(v.sharding) +
                     " can only be used when the mesh passed to shard_map contains axis names "
                     "all of type `Explicit`. Got mesh Mesh(" +
                     shape + ", axis_types=(" + axisTypes + "))");
      return;
    }
}

// NumPy's dtype name, as JAX's `str_short()` prints it without `short_dtypes`: `float32`,
// `int32`, `uint8`, `bfloat16`, `complex64`, `bool`.
std::string numpyDtypeName(ir::ElementType type) {
  std::string name = sharding::jaxDtypeName(type);
  if (name == "bool" || name.empty())
    return name;
  if (name.rfind("bf", 0) == 0)
    return "bfloat" + name.substr(2);
  switch (name[0]) {
  case 'f':
    return "float" + name.substr(1);
  case 'i':
    return "int" + name.substr(1);
  case 'u':
    return "uint" + name.substr(1);
  case 'c':
    return "complex" + name.substr(1);
  default:
    return name;
  }
}

// JAX's `str_short()` of a local value inside a manual computation: `float32[2]{V:x}`.
std::string localAvalStr(const ir::Value& value, const VarianceSet& variance) {
  ir::Type type = value.type();
  if (!type.isTensor())
    return std::string(type.str());
  std::string out = numpyDtypeName(type.elementType()) + "[";
  std::span<const int64_t> shape = type.shape();
  for (size_t d = 0; d < shape.size(); ++d)
    out += (d ? "," : "") + std::to_string(shape[d]);
  return out + "]" + variance.str();
}

// `_check_carry_type`: JAX traces a loop body once, on the initial carry, and raises a TypeError
// when a carried value comes back with another variance, suggesting a `pcast` of the initial
// value for the axes the body adds. Both `pcast` and a `pvary` in the body leave no op, so the
// text cannot prove the program was rejected: a warning in JAX's words that names what made the
// value vary, read so that the loop is legal (the initial value lifted; the analysis keeps the
// union of both sets).
void reportCarryMismatches(const VarianceAnalysis& variance, const ManualComputationView& view,
                           support::DiagnosticSink& sink) {
  for (const CarryMismatch& m : variance.carryMismatches()) {
    if (m.manualComputation != view.op)
      continue;
    std::string component = "the input carry at path [" + std::to_string(m.index) + "]";
    const ir::Value& init = *m.op->operand(m.index);
    std::string difference = component + " has type " + localAvalStr(init, m.initial) +
                             " but the corresponding output carry component has type " +
                             localAvalStr(init, m.returned) +
                             ", so the manual axis types do not match";
    difference[0] = 'T';
    std::vector<std::string> added = m.initial.missing(m.returned);
    std::string pcast;
    if (!added.empty()) {
      std::string axes;
      for (const std::string& axis : added)
        axes += "'" + axis + "', ";
      axes = added.size() == 1 ? axes.substr(0, axes.size() - 1) : axes.substr(0, axes.size() - 2);
      pcast = "This might be fixed by applying `jax.lax.pcast(..., (" + axes +
              "), to='varying')`, to the initial carry value corresponding to " + component +
              ".\nSee https://docs.jax.dev/en/latest/notebooks/shard_map.html#scan-vma for more "
              "information.\n\n";
    }
    support::Diagnostic d;
    d.severity = support::Severity::Warning;
    d.loc = m.op->loc();
    d.message = "while_loop body function carry input and carry output must have equal types, "
                "but they differ:\n\n" +
                difference + ".\n\n" + pcast +
                "Revise the function so that all output types match the corresponding input "
                "types.";
    for (const std::string& axis : added)
      if (const AxisOrigin* origin = m.returned.originOf(axis))
        d.notes.push_back({"in the body, " + describeOrigin(*origin),
                           origin->op ? origin->op->loc() : m.op->loc()});
    d.notes.push_back(
        {"`pcast` and `pvary` leave no op, so the text cannot tell whether JAX accepted this loop; "
         "it is read as JAX accepts it: the carry varies over " +
             quotedAxes(variance.varianceOf(*m.op->result(m.index))
                            ? variance.varianceOf(*m.op->result(m.index))->axes()
                            : std::vector<std::string>{}) +
             " from the first iteration on",
         m.op->loc()});
    sink.report(std::move(d));
  }
}

} // namespace

ShardMapAnalysis analyzeShardMaps(const ir::Module& module, support::DiagnosticSink& sink) {
  ShardMapAnalysis result{VarianceAnalysis::run(module), {}};
  result.replicationErrors = checkReplication(result.variance);
  // Axis types are known only where the module states them; malformed ones are reported by the
  // explicit typing, not here.
  std::optional<AxisTypes> axisTypes;
  if (module.op().hasAttr(kAxisTypesAttr)) {
    support::CollectingSink ignored;
    axisTypes = readAxisTypes(module, ignored);
  }
  for (const ManualComputationView& view : result.variance.manualComputations()) {
    reportLocalTypes(view, sink);
    reportNestedMesh(result.variance, view, sink);
    reportCollectives(result.variance, view, sink);
    reportCarryMismatches(result.variance, view, sink);
    reportPartialManualUnreduced(view, sink);
    if (axisTypes)
      reportUnreducedOnNonExplicitAxes(view, *axisTypes, sink);
    for (const ReplicationError& error : result.replicationErrors)
      if (error.manualComputation == view.op)
        sink.report(replicationDiagnostic(error, view));
  }
  return result;
}

} // namespace shardscope::analysis
