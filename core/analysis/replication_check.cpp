#include "core/analysis/replication_check.h"

#include <algorithm>

namespace shardscope::analysis {

namespace {

bool contains(std::span<const std::string> axes, std::string_view axis) {
  return std::find(axes.begin(), axes.end(), axis) != axes.end();
}

// The manual axes an out_shardings entry names: what JAX's `_spec_to_vma(spec)` gives.
std::vector<std::string> mentionedAxes(const ir::TensorSharding& sharding,
                                       std::span<const std::string> manualAxes) {
  std::vector<std::string> axes;
  for (const ir::DimensionSharding& dim : sharding.dims)
    for (const ir::AxisRef& axis : dim.axes)
      if (contains(manualAxes, axis.name))
        axes.push_back(axis.name);
  for (const ir::AxisRef& axis : sharding.unreducedAxes)
    if (contains(manualAxes, axis.name))
      axes.push_back(axis.name);
  return axes;
}

std::string functionNameOf(const ir::Operation& op) {
  const ir::Operation* fn = op.parentOfName("func.func");
  return fn ? std::string(ir::func::name(*fn)) : std::string("<unknown>");
}

// Python's repr of a tuple: `(4, 2)`, `(8,)`, `()`.
template <typename T, typename Fn> std::string pythonTuple(const std::vector<T>& items, Fn&& repr) {
  std::string out = "(";
  for (size_t i = 0; i < items.size(); ++i)
    out += (i ? ", " : "") + repr(items[i]);
  return out + (items.size() == 1 ? ",)" : ")");
}

std::string pythonStr(const std::string& s) { return "'" + s + "'"; }

std::string joinWith(std::span<const std::string> items, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i)
    out += (i ? std::string(separator) : std::string()) + items[i];
  return out;
}

std::string joinComma(std::span<const std::string> axes) { return joinWith(axes, ","); }

// An axis as a shard_map spec names it; sub-axes, which JAX can't express, keep Shardy's
// `:(m)k` suffix so that no information is lost.
std::string jaxAxisName(const ir::AxisRef& axis) {
  std::string out = pythonStr(axis.name);
  if (axis.subAxis)
    out += ":(" + std::to_string(axis.subAxis->preSize) + ")" + std::to_string(axis.subAxis->size);
  return out;
}

// One bullet of JAX's message, for one failing output.
std::string failureMessage(const ReplicationFailure& failure, const ManualComputationView& view) {
  const ir::TensorSharding& spec = view.results[failure.resultIndex].sharding;
  std::string key = view.results.size() > 1 ? "[" + std::to_string(failure.resultIndex) + "]" : "";
  std::string head = "* out_specs" + key + " is " + jaxPartitionSpecRepr(spec, view.manualAxes) +
                     " which implies that the corresponding output value is ";
  std::vector<std::string> mentioned =
      sortedByMesh(mentionedAxes(spec, view.manualAxes), view.meshAxes);
  std::vector<std::string> unmentioned;
  for (const std::string& axis : view.meshAxes)
    if (!contains(mentioned, axis))
      unmentioned.push_back(axis);
  if (unmentioned.size() != 1) {
    std::vector<std::string> diff;
    for (const std::string& axis : unmentioned)
      if (failure.variance.contains(axis))
        diff.push_back(axis);
    return head + "only varying across mesh axes {" + joinComma(mentioned) + "} and not {" +
           joinComma(diff) + "}, but it was inferred to be possibly varying over {" +
           joinComma(failure.variance.axes()) + "}";
  }
  return head + "replicated across mesh axis '" + unmentioned.front() +
         "', but could not infer replication over any axes";
}

std::string opDescription(const ir::Operation& op) {
  return "'" + std::string(op.name()) + "' at line " + std::to_string(op.loc().line);
}

} // namespace

std::vector<ReplicationError> checkReplication(const VarianceAnalysis& variance) {
  std::vector<ReplicationError> errors;
  for (const ManualComputationView& view : variance.manualComputations()) {
    const ir::Operation& op = *view.op;
    const ir::Operation* ret =
        op.numRegions() && !op.region(0).empty() ? op.region(0).front().back() : nullptr;
    if (!ret)
      continue;
    ReplicationError error{&op, functionNameOf(op), {}};
    for (unsigned i = 0; i < ret->numOperands() && i < view.results.size(); ++i) {
      const VarianceSet* v = variance.varianceOf(*ret->operand(i));
      if (!v)
        continue;
      std::vector<std::string> named = mentionedAxes(view.results[i].sharding, view.manualAxes);
      std::vector<std::string> failing;
      for (const std::string& axis : v->axes())
        if (contains(view.manualAxes, axis) && !contains(named, axis))
          failing.push_back(axis);
      if (!failing.empty())
        error.failures.push_back({i, std::move(failing), *v});
    }
    if (!error.failures.empty())
      errors.push_back(std::move(error));
  }
  return errors;
}

std::string replicationMessage(const ReplicationError& error, const ManualComputationView& view) {
  std::vector<std::string> bullets;
  for (const ReplicationFailure& failure : error.failures)
    bullets.push_back(failureMessage(failure, view));
  if (bullets.size() == 1)
    bullets.front().erase(0, 2); // JAX drops the bullet of a lone entry
  std::vector<int64_t> shape;
  if (view.mesh.mesh)
    for (const ir::MeshAxis& axis : view.mesh.mesh->axes)
      shape.push_back(axis.size);
  std::string msg = "shard_map applied to the function '" + error.functionName +
                    "' was given out_specs which require replication which can't be statically "
                    "inferred given the mesh:\n\nThe mesh given has shape " +
                    pythonTuple(shape, [](int64_t s) { return std::to_string(s); }) +
                    " with corresponding axis names " + pythonTuple(view.meshAxes, pythonStr) +
                    ".\n\n";
  for (const std::string& bullet : bullets)
    msg += bullet + "\n\n";
  return msg + "Check if these output values are meant to be replicated over those mesh axes. If "
               "not, consider revising the corresponding out_specs entries. If so, consider "
               "disabling the check by passing the check_vma=False argument to `jax.shard_map`.";
}

support::Diagnostic replicationDiagnostic(const ReplicationError& error,
                                          const ManualComputationView& view) {
  support::Diagnostic diag;
  diag.message = replicationMessage(error, view);
  diag.loc = error.manualComputation->loc();
  // JAX runs this check before it writes the program, and a program traced with check_vma=False
  // carries no mark: a value that varies only by its inputs or a collective may well be equal on
  // every device (the tracer asserted it). Only a device id read into the output proves the
  // devices differ.
  bool proven = false;
  for (const ReplicationFailure& failure : error.failures)
    for (const std::string& axis : failure.axes)
      if (const AxisOrigin* origin = failure.variance.originOf(axis))
        proven = proven || origin->source == VarianceSource::DeviceId;
  diag.severity = proven ? support::Severity::Error : support::Severity::Warning;
  for (const ReplicationFailure& failure : error.failures)
    for (const std::string& axis : failure.axes) {
      const AxisOrigin* origin = failure.variance.originOf(axis);
      if (!origin)
        continue;
      diag.notes.push_back(
          {"output " + std::to_string(failure.resultIndex) + ": " + describeOrigin(*origin),
           origin->op ? origin->op->loc() : diag.loc});
    }
  if (!proven)
    diag.notes.push_back({"JAX rejects this under check_vma=True; the text cannot tell a program "
                          "traced with check_vma=False, so this is a warning: `run "
                          "--check-reference` shows whether the devices really hold different "
                          "values",
                          diag.loc});
  return diag;
}

std::string jaxPartitionSpecRepr(const ir::TensorSharding& sharding,
                                 std::span<const std::string> manualAxes) {
  std::vector<std::string> entries;
  for (const ir::DimensionSharding& dim : sharding.dims) {
    std::vector<std::string> names;
    for (const ir::AxisRef& axis : dim.axes)
      if (contains(manualAxes, axis.name))
        names.push_back(jaxAxisName(axis));
    entries.push_back(names.empty()       ? "None"
                      : names.size() == 1 ? names.front()
                                          : "(" + joinWith(names, ", ") + ")");
  }
  while (!entries.empty() && entries.back() == "None")
    entries.pop_back();
  std::vector<std::string> unreduced;
  for (const ir::AxisRef& axis : sharding.unreducedAxes)
    if (contains(manualAxes, axis.name))
      unreduced.push_back(jaxAxisName(axis));
  std::string inner = joinWith(entries, ", ");
  if (entries.size() == 1 && unreduced.empty())
    inner += ","; // a one-element tuple
  if (!unreduced.empty())
    inner +=
        (inner.empty() ? "" : ", ") + std::string("unreduced={") + joinWith(unreduced, ", ") + "}";
  return "PartitionSpec(" + inner + ")";
}

std::string describeOrigin(const AxisOrigin& origin) {
  std::string axis = "mesh axis '" + origin.axis + "'";
  if (!origin.op)
    return "varies over " + axis;
  switch (origin.source) {
  case VarianceSource::InSharding:
    return "varies over " + axis + " because in_shardings[" + std::to_string(origin.index) +
           "] of the manual computation at line " + std::to_string(origin.op->loc().line) +
           " names it";
  case VarianceSource::DeviceId:
    return opDescription(*origin.op) + " gives each device its own id, so the value varies over " +
           axis;
  case VarianceSource::Collective:
    return opDescription(*origin.op) + " makes its result vary over " + axis;
  }
  return "";
}

} // namespace shardscope::analysis
