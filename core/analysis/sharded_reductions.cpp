#include "core/analysis/sharded_reductions.h"

#include "core/ir/attribute.h"
#include "core/ir/stablehlo_attrs.h"
#include "core/sharding/mesh_view.h"
#include "core/sharding/axis_refs.h"
#include "core/sharding/value_sharding.h"
#include "core/sharding/verify_unreduced_axes.h"

#include <algorithm>
#include <cstdio>

namespace shardscope::analysis {

namespace {

// The op that makes the value the reduction body returns first (`stablehlo.multiply`).
const ir::Operation* bodyOp(const ir::Operation& reduce) {
  if (reduce.numRegions() != 1 || reduce.region(0).empty())
    return nullptr;
  const ir::Operation* ret = reduce.region(0).front().back();
  return ret && ret->numOperands() > 0 ? ret->operand(0)->definingOp() : nullptr;
}

// The scalar value of a constant init, as a double (integers exactly up to 2^53).
std::optional<double> constantScalar(const ir::Value& init, bool& isFloat) {
  const ir::Operation* def = init.definingOp();
  if (!def || !(def->is("stablehlo.constant") || def->is("sdy.constant")))
    return std::nullopt;
  const auto* dense = def->attr("value").as<ir::DenseElementsAttr>();
  if (!dense || dense->numElements() != 1)
    return std::nullopt;
  const ir::ElementType element = dense->type.elementType();
  isFloat = ir::isFloatElement(element);
  if (isFloat)
    return dense->floatAt(0);
  if (ir::isIntegerElement(element))
    return static_cast<double>(dense->intAt(0));
  return std::nullopt; // complex, quantized: not checked
}

std::string numberText(double v, bool isFloat) {
  char buf[64];
  std::snprintf(buf, sizeof buf, isFloat ? "%g" : "%.0f", v);
  return buf;
}

// The devices the reduced dimensions of `reduce` are sharded over, and which axes on which
// dimensions (`"x" on dimension 0`); 1 when none is.
int64_t reducedDevices(const ir::Module& module, const ir::Operation& reduce, std::string& where) {
  std::optional<std::vector<int64_t>> dims = ir::stablehlo::intListAttr(reduce, "dimensions");
  if (!dims || reduce.numOperands() == 0)
    return 1;
  std::optional<ir::TensorSharding> sharding = sharding::heldSharding(*reduce.operand(0));
  const ir::Mesh* mesh = sharding ? ir::resolveMesh(module, *sharding) : nullptr;
  if (!mesh)
    return 1;
  sharding::MeshView view(*mesh);
  int64_t devices = 1;
  for (int64_t d : *dims) {
    if (d < 0 || d >= static_cast<int64_t>(sharding->dims.size()))
      continue;
    for (const ir::AxisRef& axis : sharding->dims[d].axes) {
      devices *= std::max<int64_t>(1, view.sizeOf(axis));
      where += (where.empty() ? "" : ", ") + sharding::axisRefString(axis) + " on dimension " +
               std::to_string(d);
    }
  }
  return devices;
}

} // namespace

std::vector<ShardedReductionFinding> shardedReductionFindings(const ir::Module& module) {
  std::vector<ShardedReductionFinding> found;
  module.op().walk([&](const ir::Operation& op) {
    if (!op.is("stablehlo.reduce"))
      return;
    std::string where;
    const int64_t devices = reducedDevices(module, op, where);
    if (devices <= 1)
      return;
    const std::string count = std::to_string(devices);
    ShardedReductionFinding f;
    f.reduce = &op;
    std::optional<std::string> kind = sharding::bodyReduction(op);
    if (!kind) {
      const ir::Operation* body = bodyOp(op);
      const std::string what = body ? "its '" + std::string(body->name()) + "' body"
                                    : std::string("its body");
      f.message = "this reduce's dimensions are sharded (" + where + ") and " + what +
                  " is not a sum, a maximum or a minimum: partitioning reduces each of the " +
                  count + " devices' blocks and all-reduces the partial results with a sum (the "
                  "operators an all-reduce of Shardy knows are those three), so the sharded "
                  "result differs from the unsharded one";
      found.push_back(std::move(f));
      return;
    }
    if (*kind != "sum" || op.numOperands() != 2)
      return; // a maximum or a minimum may apply its init any number of times
    bool isFloat = false;
    std::optional<double> init = constantScalar(*op.operand(1), isFloat);
    if (!init || *init == 0.0)
      return;
    f.message = "the init value of this reduce (" + numberText(*init, isFloat) +
                ") is not the identity of its 'stablehlo.add' body (0) and its reduced "
                "dimensions are sharded (" + where + "): partitioning reduces each of the " +
                count + " devices' blocks from the init and sums the partial results, so the "
                "init enters " + count + " times and the sharded result differs from the "
                "unsharded one (XLA and Shardy assume the init is the identity)";
    found.push_back(std::move(f));
  });
  return found;
}

void checkShardedReductions(const ir::Module& module, support::DiagnosticSink& sink) {
  for (const ShardedReductionFinding& f : shardedReductionFindings(module))
    sink.warning(f.reduce->loc(), f.message);
}

} // namespace shardscope::analysis
