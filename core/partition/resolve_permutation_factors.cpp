#include "core/partition/resolve_permutation_factors.h"

#include "core/ir/stablehlo_attrs.h"
#include "core/sharding/mesh_view.h"
#include "core/sharding/sharding_layout.h"
#include "core/sharding/value_sharding.h"

#include <algorithm>
#include <optional>
#include <string>

namespace shardscope::partition {
namespace {

using ir::Attribute;
using ir::Operation;
using ir::TensorSharding;
using ir::Value;
using sharding::ShardingLayout;

// Work bound of the exhaustive reshape check (devices x local elements).
constexpr int64_t kMaxReshapeCheck = int64_t{1} << 22;

bool hasAxes(const TensorSharding& s) {
  return std::any_of(s.dims.begin(), s.dims.end(),
                     [](const ir::DimensionSharding& d) { return !d.axes.empty(); });
}

std::vector<int64_t> strides(std::span<const int64_t> shape) {
  std::vector<int64_t> out(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    out[i - 1] = out[i] * shape[i];
  return out;
}

// Per dimension: same axes in operand and result.
bool sameAxes(const TensorSharding& a, const TensorSharding& b, size_t d) {
  return a.dims[d].axes == b.dims[d].axes;
}

bool sliceIsLocal(const Operation& op, const TensorSharding& in, const TensorSharding& out,
                  const ShardingLayout& inL, const ShardingLayout& outL) {
  auto start = ir::stablehlo::intListAttr(op, "start_indices");
  auto step = ir::stablehlo::intListAttr(op, "strides");
  if (!start || !step)
    return false;
  std::vector<int64_t> li = inL.localShape(), lo = outL.localShape();
  for (size_t d = 0; d < li.size(); ++d) {
    if (in.dims[d].axes.empty() && out.dims[d].axes.empty())
      continue;
    if (!sameAxes(in, out, d) || (*start)[d] != 0 || (*step)[d] != 1 || li[d] != lo[d])
      return false;
  }
  return true;
}

bool reverseIsLocal(const Operation& op, const TensorSharding& in, const TensorSharding& out) {
  auto dims = ir::stablehlo::intListAttr(op, "dimensions");
  if (!dims)
    return false;
  for (size_t d = 0; d < in.dims.size(); ++d) {
    bool reversed = std::count(dims->begin(), dims->end(), static_cast<int64_t>(d)) > 0;
    if (!sameAxes(in, out, d) || (reversed && !in.dims[d].axes.empty()))
      return false;
  }
  return true;
}

// Each device's output block along each dimension must read only its own input block, and the
// padding of its input block must not land inside its valid output block.
bool padIsLocal(const Operation& op, const TensorSharding& in, const TensorSharding& out,
                const ShardingLayout& inL, const ShardingLayout& outL) {
  auto low = ir::stablehlo::intListAttr(op, "edge_padding_low");
  auto interior = ir::stablehlo::intListAttr(op, "interior_padding");
  if (!low || !interior)
    return false;
  std::vector<int64_t> li = inL.localShape(), lo = outL.localShape();
  const auto& gi = inL.globalShape();
  const auto& go = outL.globalShape();
  for (size_t d = 0; d < li.size(); ++d) {
    if (in.dims[d].axes.empty() && out.dims[d].axes.empty())
      continue;
    if (!sameAxes(in, out, d))
      return false;
    int64_t step = (*interior)[d] + 1;
    for (int64_t k = 0; k < outL.shardsPerDim()[d]; ++k) {
      int64_t outBegin = k * lo[d], outEnd = std::min((k + 1) * lo[d], go[d]);
      for (int64_t g = outBegin; g < outEnd; ++g) {
        int64_t rel = g - (*low)[d];
        if (rel < 0 || rel % step != 0 || rel / step >= gi[d])
          continue;
        int64_t i = rel / step;
        if (i < k * li[d] || i >= (k + 1) * li[d])
          return false;
      }
      for (int64_t i = std::max(gi[d], k * li[d]); i < (k + 1) * li[d]; ++i) {
        int64_t g = (*low)[d] + i * step;
        if (g >= outBegin && g < outEnd)
          return false;
      }
    }
  }
  return true;
}

bool reshapeIsLocal(const ShardingLayout& inL, const ShardingLayout& outL) {
  std::vector<int64_t> li = inL.localShape(), lo = outL.localShape();
  int64_t localOut = 1, localIn = 1;
  for (int64_t v : lo)
    localOut *= v;
  for (int64_t v : li)
    localIn *= v;
  if (localOut != localIn || localOut * outL.numDevices() > kMaxReshapeCheck)
    return false;
  std::vector<int64_t> gos = strides(outL.globalShape()), gis = strides(inL.globalShape());
  std::vector<int64_t> los = strides(lo), lis = strides(li);
  for (const sharding::DeviceBlock& ob : outL.blocks()) {
    auto ib = inL.blockOf(ob.deviceId);
    if (!ib)
      return false;
    for (int64_t f = 0; f < localOut; ++f) {
      int64_t flat = 0;
      bool valid = true;
      for (size_t d = 0; d < lo.size(); ++d) {
        int64_t g = ob.shardIndex[d] * lo[d] + (f / los[d]) % lo[d];
        valid = valid && g < outL.globalShape()[d];
        flat += g * gos[d];
      }
      if (!valid)
        continue;
      int64_t localFlat = 0;
      for (size_t d = 0; d < li.size(); ++d) {
        int64_t g = (flat / gis[d]) % inL.globalShape()[d];
        int64_t l = g - ib->shardIndex[d] * li[d];
        if (l < 0 || l >= li[d])
          return false;
        localFlat += l * lis[d];
      }
      if (localFlat != f)
        return false;
    }
  }
  return true;
}

// Concatenate, dynamic_slice and dynamic_update_slice are local when every sharded dimension
// is one they pass through whole (not the concatenated dimension, a dimension sliced or updated
// in full) and all tensor operands and the result agree on its axes.
bool passThroughIsLocal(const Operation& op, const std::vector<TensorSharding>& ins,
                        const TensorSharding& out) {
  size_t rank = out.dims.size();
  std::span<const int64_t> shape0 = op.operand(0)->type().shape();
  auto sizes = ir::stablehlo::intListAttr(op, "slice_sizes");
  auto concatDim = ir::stablehlo::intAttr(op, "dimension");
  for (size_t d = 0; d < rank; ++d) {
    bool sharded = !out.dims[d].axes.empty();
    for (const TensorSharding& in : ins)
      sharded = sharded || !in.dims[d].axes.empty();
    if (!sharded)
      continue;
    for (const TensorSharding& in : ins)
      if (in.dims[d].axes != out.dims[d].axes)
        return false;
    if (op.is("stablehlo.concatenate") && concatDim && static_cast<size_t>(*concatDim) == d)
      return false;
    if (op.is("stablehlo.dynamic_slice") && (!sizes || (*sizes)[d] != shape0[d]))
      return false;
    if (op.is("stablehlo.dynamic_update_slice") && op.operand(1)->type().shape()[d] != shape0[d])
      return false;
  }
  return true;
}

TensorSharding replicatedLike(const TensorSharding& s) {
  TensorSharding out;
  out.meshName = s.meshName;
  out.inlineMesh = s.inlineMesh;
  out.dims.assign(s.dims.size(), ir::DimensionSharding{});
  return out;
}

std::vector<std::vector<ir::AxisRef>> axesPerDim(const TensorSharding& s) {
  std::vector<std::vector<ir::AxisRef>> out;
  for (const auto& d : s.dims)
    out.push_back(d.axes);
  return out;
}

Operation* insertCollective(Operation& before, std::string_view name, std::string_view axesAttr,
                            Value* input, const TensorSharding& axesFrom,
                            const TensorSharding& outSharding, std::vector<InsertedCollective>* log,
                            std::string reason) {
  std::vector<Value*> operands{input};
  std::vector<ir::Type> types{input->type()};
  auto op = Operation::create(name, operands, types, before.loc());
  op->setAttr(axesAttr, Attribute::axisRefListList(axesPerDim(axesFrom)));
  op->setInherent(axesAttr, true);
  op->setAttr("out_sharding", Attribute::sharding(outSharding));
  op->setInherent("out_sharding", true);
  Operation* inserted = before.parentBlock()->insertBefore(&before, std::move(op));
  if (log) {
    InsertedCollective entry;
    entry.op = inserted;
    entry.reason = std::move(reason);
    entry.producerSharding = Attribute::sharding(axesFrom).str();
    entry.neededSharding = Attribute::sharding(outSharding).str();
    entry.consumer = name == "sdy.all_gather" ? &before : nullptr;
    entry.producer = input->definingOp();
    log->push_back(std::move(entry));
  }
  return inserted;
}

bool isPassThroughOp(const Operation& op) {
  return op.is("stablehlo.concatenate") || op.is("stablehlo.dynamic_slice") ||
         op.is("stablehlo.dynamic_update_slice");
}

// The sharding of `value` on `out`'s mesh shape, or replicated when it has none (or another rank).
TensorSharding operandSharding(const Value& value, const TensorSharding& out) {
  TensorSharding in = sharding::valueSharding(value).value_or(replicatedLike(out));
  if (!value.type().isTensor() || in.dims.size() != static_cast<size_t>(value.type().rank()))
    return replicatedLike(out);
  return in;
}

void insertSliceBack(Operation& op, const TensorSharding& out,
                     std::vector<InsertedCollective>* log) {
  Operation* next = nullptr;
  for (auto it = op.parentBlock()->ops().begin(); it != op.parentBlock()->ops().end(); ++it)
    if (it->get() == &op)
      next = std::next(it)->get();
  Value* result = op.result(0);
  std::vector<ir::Use> uses(result->uses().begin(), result->uses().end());
  Operation* slice = insertCollective(*next, "sdy.all_slice", "slicing_axes", result, out, out, log,
                                      "slices the result of '" + std::string(op.name()) +
                                          "', computed replicated, back to its sharding");
  for (const ir::Use& use : uses)
    use.user->setOperand(use.index, slice->result(0));
}

void resolvePassThrough(Operation& op, const ir::Module& module,
                        std::vector<InsertedCollective>* log) {
  const auto* attr = op.attr("sdy.sharding").as<ir::ShardingPerValueAttr>();
  if (!attr || attr->shardings.size() != 1 || op.numResults() != 1)
    return;
  TensorSharding out = attr->shardings.front();
  const ir::Mesh* outMesh = ir::resolveMesh(module, out);
  if (!outMesh || out.dims.size() != static_cast<size_t>(op.result(0)->type().rank()))
    return;
  // The tensor operands sharing the result's rank (not the scalar start indices).
  std::vector<unsigned> tensors;
  std::vector<TensorSharding> ins;
  bool sameMesh = true;
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    if (op.operand(i)->type().isTensor() &&
        op.operand(i)->type().rank() == op.result(0)->type().rank() &&
        op.result(0)->type().rank() > 0) {
      tensors.push_back(i);
      ins.push_back(operandSharding(*op.operand(i), out));
      const ir::Mesh* m = ir::resolveMesh(module, ins.back());
      sameMesh = sameMesh && m && *m == *outMesh;
    }
  }
  bool any = hasAxes(out);
  for (const TensorSharding& in : ins)
    any = any || hasAxes(in);
  if (!any || (sameMesh && passThroughIsLocal(op, ins, out)))
    return;
  for (size_t k = 0; k < tensors.size(); ++k)
    if (hasAxes(ins[k])) {
      Operation* gather =
          insertCollective(op, "sdy.all_gather", "gathering_axes", op.operand(tensors[k]), ins[k],
                           replicatedLike(ins[k]), log,
                           "'" + std::string(op.name()) + "' moves data across devices: operand " +
                               std::to_string(tensors[k]) + " is gathered");
      op.setOperand(tensors[k], gather->result(0));
    }
  op.setAttr("sdy.sharding", Attribute::shardingPerValue({replicatedLike(out)}));
  if (hasAxes(out))
    insertSliceBack(op, out, log);
}

void resolve(Operation& op, const ir::Module& module, bool haloExchange,
             std::vector<InsertedCollective>* log) {
  if (isPassThroughOp(op))
    return resolvePassThrough(op, module, log);
  const auto* attr = op.attr("sdy.sharding").as<ir::ShardingPerValueAttr>();
  if (!attr || attr->shardings.size() != 1 || op.numResults() != 1)
    return;
  TensorSharding out = attr->shardings.front();
  TensorSharding in = sharding::valueSharding(*op.operand(0)).value_or(replicatedLike(out));
  if (in.dims.size() != static_cast<size_t>(op.operand(0)->type().rank()))
    in = replicatedLike(out);
  if (!hasAxes(in) && !hasAxes(out))
    return;
  const ir::Mesh* outMesh = ir::resolveMesh(module, out);
  const ir::Mesh* inMesh = ir::resolveMesh(module, in);
  if (!outMesh || !inMesh || !op.operand(0)->type().hasStaticShape() ||
      !op.result(0)->type().hasStaticShape())
    return;
  bool local = false;
  if (*inMesh == *outMesh && haloExchange && (op.is("stablehlo.slice") || op.is("stablehlo.pad"))) {
    // Each sharded dimension keeps its axes: -sdy-convert-global-to-local exchanges the halo
    // with collective permutes between neighbouring blocks.
    bool sameAxes = in.dims.size() == out.dims.size();
    for (size_t d = 0; sameAxes && d < in.dims.size(); ++d)
      sameAxes = in.dims[d].axes == out.dims[d].axes;
    if (sameAxes)
      return;
  }
  if (*inMesh == *outMesh) {
    auto inL = ShardingLayout::create(in, *inMesh, op.operand(0)->type().shape());
    auto outL = ShardingLayout::create(out, *outMesh, op.result(0)->type().shape());
    if (!inL || !outL)
      return;
    if (op.is("stablehlo.slice"))
      local = sliceIsLocal(op, in, out, *inL, *outL);
    else if (op.is("stablehlo.reverse"))
      local = reverseIsLocal(op, in, out);
    else if (op.is("stablehlo.pad"))
      local = padIsLocal(op, in, out, *inL, *outL);
    else
      local = reshapeIsLocal(*inL, *outL);
  }
  if (local)
    return;
  if (hasAxes(in)) {
    Operation* gather = insertCollective(
        op, "sdy.all_gather", "gathering_axes", op.operand(0), in, replicatedLike(in), log,
        "'" + std::string(op.name()) + "' moves data across devices: its operand is gathered");
    op.setOperand(0, gather->result(0));
  }
  op.setAttr("sdy.sharding", Attribute::shardingPerValue({replicatedLike(out)}));
  if (hasAxes(out))
    insertSliceBack(op, out, log);
}

} // namespace

bool resolvePermutationFactors(ir::Module& module, const ResolvePermutationFactorsOptions& options,
                               support::DiagnosticSink&, std::vector<InsertedCollective>* log) {
  for (Operation* fn : module.functions()) {
    std::vector<Operation*> ops;
    fn->walk([&](Operation& op) {
      if (op.is("stablehlo.slice") || op.is("stablehlo.pad") || op.is("stablehlo.reverse") ||
          op.is("stablehlo.reshape") || isPassThroughOp(op))
        ops.push_back(&op);
    });
    for (Operation* op : ops)
      resolve(*op, module, options.enableHaloExchange, log);
  }
  return true;
}

} // namespace shardscope::partition
