// Verification of the explicit collectives: the checks common to every collective, then the
// op's own (what applying its axes to the operand sharding must give).
#include "core/sharding/axis_refs.h"
#include "core/sharding/detail/verify_support.h"

#include <algorithm>
#include <functional>

namespace shardscope::sharding::detail {

using ir::AxisRef;
using AxisList = std::vector<AxisRef>;

namespace {

// Everything a collective's own check needs, resolved by the common checks.
// The shardings are not copied (every collective of a large program is verified): `result` is
// the op's attribute, `operand` points at the operand's sharding or into `operandStorage`.
struct CollectiveInfo {
  const ir::Operation& op;
  ErrorEmitter emit;
  const ir::TensorSharding& result;
  // The operand's sharding, or fully replicated when it has none.
  const ir::TensorSharding* operand = nullptr;
  std::optional<ir::TensorSharding> operandStorage = std::nullopt;
  bool operandHasSharding = false;
  const ir::Mesh* mesh = nullptr; // the result mesh
};

bool allowsMissingInputSharding(const ir::Operation& op) {
  return op.is("sdy.all_slice") || op.is("sdy.all_reduce") || op.is("sdy.reduce_scatter");
}

// 1. operand has a sharding, 2. the result sharding is valid, 3. same mesh, 4. same rank.
bool verifyCommon(const VerifyContext& ctx, CollectiveInfo& info) {
  const ir::Operation& op = info.op;
  const ir::TensorSharding* operand = valueShardingRef(*op.operand(0), info.operandStorage);
  if (!operand && !allowsMissingInputSharding(op))
    return info.emit("collective on operand without sharding");
  if (!verifyShardingForOp(ctx, info.result, op.result(0)->type(), op, info.emit))
    return false;
  info.mesh = ctx.meshOf(info.result);
  const ir::Mesh* operandMesh = operand ? ctx.meshOf(*operand) : nullptr;
  // MLIR puts a note on the operand's location; a block argument is located at its owner here.
  const ir::Value& input = *op.operand(0);
  const ir::Operation* locOwner =
      input.definingOp() ? input.definingOp() : input.ownerBlock()->parentOp();
  support::SourceLocation operandLoc = locOwner ? locOwner->loc() : op.loc();
  auto meshNote = [&](const ir::Mesh& mesh) {
    return std::vector<support::DiagnosticNote>{
        {"operand mesh: " + ir::Attribute::mesh(mesh).str(), operandLoc}};
  };
  if (op.is("sdy.collective_permute")) {
    // Different meshes are allowed as long as they have the same axes.
    if (operandMesh && operandMesh->axes != info.mesh->axes)
      return info.emit("result mesh has different axes than operand mesh", meshNote(*operandMesh));
    if (operandMesh && operand->meshName != info.result.meshName &&
        operandMesh->deviceIds == info.mesh->deviceIds)
      return info.emit("result mesh name is different but same device ids as operand",
                       meshNote(*operandMesh));
  } else if (operandMesh && !(*operandMesh == *info.mesh)) {
    return info.emit("result mesh does not match operand mesh", meshNote(*operandMesh));
  }
  if (operand && operand->dims.size() != info.result.dims.size())
    return info.emit("result sharding has rank " + std::to_string(info.result.dims.size()) +
                     " but operand sharding has rank " + std::to_string(operand->dims.size()));
  info.operandHasSharding = operand != nullptr;
  if (operand) {
    info.operand = operand;
  } else {
    // Shardy's getOrCreateSharding: fully closed and replicated, on the result's mesh.
    ir::TensorSharding& replicated = info.operandStorage.emplace(info.result);
    ir::Type type = op.operand(0)->type();
    replicated.dims.assign(type.isTensor() ? static_cast<size_t>(type.rank()) : 0, {});
    replicated.replicatedAxes.clear();
    replicated.unreducedAxes.clear();
    replicated.unreducedKind.clear();
    info.operand = &replicated;
  }
  return true;
}

bool axesListsEqual(const AxisList& a, const AxisList& b) { return a == b; }

bool checkDimSharding(const CollectiveInfo& info, size_t dim, const AxisList& expected) {
  if (!axesListsEqual(expected, info.result.dims[dim].axes))
    return info.emit("result sharding doesn't match expected sharding " +
                     axisRefListString(expected) + " on dimension " + std::to_string(dim));
  return true;
}

// Removes `axes` from the end of `dimAxes` (they must be a suffix), as a gather does.
std::optional<AxisList> gatherAlongDim(const CollectiveInfo& info, const AxisList& dimAxes,
                                       std::span<const AxisRef> axes, size_t dim,
                                       const char* axisKind) {
  MeshView mesh(*info.mesh);
  AxisList expected = dimAxes;
  for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
    if (expected.empty() || !axisSuffixOf(*it, expected.back(), mesh)) {
      info.emit(std::string("can't apply ") + axisKind + " axis " + axisRefString(*it) +
                " to operand sharding on dimension " + std::to_string(dim));
      return std::nullopt;
    }
    AxisRef last = expected.back();
    expected.pop_back();
    if (std::optional<AxisRef> prefix = axisPrefixWithoutOverlap(last, *it))
      expected.push_back(*prefix);
  }
  return expected;
}

// Appends `axes` to `dimAxes`, as a slice does.
AxisList sliceAlongDim(const CollectiveInfo& info, const AxisList& dimAxes,
                       std::span<const AxisRef> axes) {
  MeshView mesh(*info.mesh);
  AxisList expected = dimAxes;
  for (const AxisRef& axis : axes)
    appendAxisOrMerge(expected, axis, mesh);
  return expected;
}

using DimTransform =
    std::function<std::optional<AxisList>(const AxisList&, std::span<const AxisRef>, size_t)>;

// all_gather, all_slice, reduce_scatter, sharded_to_unreduced: per-dimension axes applied to the
// operand sharding must give the result sharding.
bool verifyAxesPerDim(const CollectiveInfo& info, const char* attrName,
                      const DimTransform& transform) {
  const auto* attr = info.op.attr(attrName).as<ir::AxisRefListListAttr>();
  if (!attr)
    return true;
  const std::vector<AxisList>& perDim = attr->lists;
  MeshView mesh(*info.mesh);
  AxisRefTracker tracker;
  for (const AxisList& axes : perDim)
    if (!verifyAxisRefList(axes, mesh, tracker, info.emit))
      return false;
  if (info.result.dims.size() != perDim.size())
    return info.emit("result sharding has rank " + std::to_string(info.result.dims.size()) +
                     " but collective axes has rank " + std::to_string(perDim.size()));
  for (size_t dim = 0; dim < perDim.size() && dim < info.operand->dims.size(); ++dim) {
    std::optional<AxisList> expected = transform(info.operand->dims[dim].axes, perDim[dim], dim);
    if (!expected || !checkDimSharding(info, dim, *expected))
      return false;
  }
  return true;
}

bool verifyOutReductionIsSum(const CollectiveInfo& info) {
  if (!info.result.unreducedAxes.empty() && reductionKindName(info.result) != "sum")
    return info.emit("out_sharding reduction_op must be SUM");
  return true;
}

bool verifyShardedToUnreduced(const CollectiveInfo& info) {
  if (!verifyAxesPerDim(info, "sharding_axes",
                        [&](const AxisList& dimAxes, std::span<const AxisRef> axes, size_t dim) {
                          return gatherAlongDim(info, dimAxes, axes, dim, "shard-to-unreduce");
                        }))
    return false;
  AxisList expected = info.operand->unreducedAxes;
  if (const auto* attr = info.op.attr("sharding_axes").as<ir::AxisRefListListAttr>())
    for (const AxisList& axes : attr->lists)
      expected.insert(expected.end(), axes.begin(), axes.end());
  if (sortAndMerge(expected, MeshView(*info.mesh)) != info.result.unreducedAxes)
    return info.emit("out_unreduced_axes should be in_unreduced_axes + sharded_to_unreduced_axes");
  return verifyOutReductionIsSum(info);
}

bool verifyReplicatedToUnreduced(const CollectiveInfo& info) {
  const auto* attr = info.op.attr("axes").as<ir::AxisRefListAttr>();
  if (!attr)
    return true;
  const AxisList& axes = attr->axes;
  for (size_t dim = 0; dim < info.operand->dims.size() && dim < info.result.dims.size(); ++dim)
    if (info.operand->dims[dim].axes != info.result.dims[dim].axes)
      return info.emit("input and output must share the same dimension shardings");
  MeshView mesh(*info.mesh);
  AxisRefTracker tracker;
  if (!verifyAxisRefList(axes, mesh, tracker, info.emit))
    return false;
  for (const AxisRef& axis : axes) {
    auto overlaps = [&](const AxisRef& other) { return axisOverlaps(other, axis); };
    for (const ir::DimensionSharding& dim : info.operand->dims)
      if (std::any_of(dim.axes.begin(), dim.axes.end(), overlaps))
        return info.emit("r2u axis " + axisRefString(axis) +
                         " overlaps with operand dimension sharding");
    if (std::any_of(info.operand->unreducedAxes.begin(), info.operand->unreducedAxes.end(),
                    overlaps))
      return info.emit("r2u axis " + axisRefString(axis) + " overlaps with operand unreduced axes");
  }
  AxisList expected = info.operand->unreducedAxes;
  expected.insert(expected.end(), axes.begin(), axes.end());
  if (sortAndMerge(expected, mesh) != info.result.unreducedAxes)
    return info.emit("out_unreduced_axes should be in_unreduced_axes + r2u_axes");
  return verifyOutReductionIsSum(info);
}

bool verifyAllToAll(const CollectiveInfo& info) {
  const auto* attr = info.op.attr("params").as<ir::AllToAllParamsAttr>();
  if (!attr || attr->params.empty())
    return info.emit("parameter list is empty");
  const auto& params = attr->params;
  int64_t rank = static_cast<int64_t>(info.result.dims.size());
  if (ir::Type type = info.op.result(0)->type(); type.isTensor())
    rank = type.rank();
  MeshView mesh(*info.mesh);
  AxisRefTracker tracker;
  std::vector<bool> seenDims(static_cast<size_t>(rank), false);
  int64_t prevSrc = -1;
  for (const ir::AllToAllParam& param : params) {
    if (!verifyAxisRefList(param.axes, mesh, tracker, info.emit))
      return false;
    for (auto [dim, name] : {std::pair{param.srcDim, "source"}, std::pair{param.tgtDim, "target"}})
      if (dim < 0 || dim >= rank)
        return info.emit(std::string(name) + " dimension " + std::to_string(dim) +
                         " is out of range [0, " + std::to_string(rank) + ")");
    for (int64_t dim : {param.srcDim, param.tgtDim}) {
      if (seenDims[static_cast<size_t>(dim)])
        return info.emit("overlapping source/target dimensions in all-to-all params: " +
                         std::to_string(dim));
      seenDims[static_cast<size_t>(dim)] = true;
    }
    if (prevSrc >= param.srcDim)
      return info.emit("source dimensions are not sorted in ascending order: " +
                       std::to_string(param.srcDim) + " appears after " + std::to_string(prevSrc));
    prevSrc = param.srcDim;
  }
  size_t dims = std::min(info.operand->dims.size(), info.result.dims.size());
  // Moving the axes is checked after all dimensions are known to be distinct, so that an overlap
  // isn't reported as a sharding mismatch.
  for (const ir::AllToAllParam& param : params) {
    auto src = static_cast<size_t>(param.srcDim), tgt = static_cast<size_t>(param.tgtDim);
    if (src >= dims || tgt >= dims)
      continue;
    std::optional<AxisList> expectedSrc =
        gatherAlongDim(info, info.operand->dims[src].axes, param.axes, src, "all-to-all");
    if (!expectedSrc || !checkDimSharding(info, src, *expectedSrc) ||
        !checkDimSharding(info, tgt, sliceAlongDim(info, info.operand->dims[tgt].axes, param.axes)))
      return false;
  }
  for (size_t dim = 0; dim < dims; ++dim)
    if (!seenDims[dim] && !checkDimSharding(info, dim, info.operand->dims[dim].axes))
      return false;
  return true;
}

bool verifyCollectivePermute(const CollectiveInfo& info) {
  MeshView mesh(*info.mesh);
  size_t dims = std::min(info.operand->dims.size(), info.result.dims.size());
  for (size_t dim = 0; dim < dims; ++dim) {
    const AxisList& in = info.operand->dims[dim].axes;
    const AxisList& out = info.result.dims[dim].axes;
    if (in == out)
      continue;
    int64_t inSize = 1, outSize = 1;
    for (const AxisRef& axis : in)
      inSize *= mesh.sizeOf(axis);
    for (const AxisRef& axis : out)
      outSize *= mesh.sizeOf(axis);
    if (inSize != outSize)
      return info.emit("sharded size of result doesn't match operand on dimension " +
                       std::to_string(dim) + ": " + std::to_string(outSize) +
                       " != " + std::to_string(inSize));
  }
  return true;
}

bool verifyAllReduce(const CollectiveInfo& info) {
  for (size_t dim = 0; dim < info.operand->dims.size(); ++dim)
    if (dim >= info.result.dims.size() ||
        info.operand->dims[dim].axes != info.result.dims[dim].axes)
      return info.emit("operand and result sharding have different axes");
  const auto* attr = info.op.attr("reduction_axes").as<ir::AxisRefListAttr>();
  AxisList axes = attr ? attr->axes : AxisList{};
  MeshView mesh(*info.mesh);
  if (!isMeshSorted(mesh, axes))
    return info.emit("reduction axes are not ordered w.r.t. mesh");
  AxisRefTracker tracker;
  if (!verifyAxisRefList(axes, mesh, tracker, info.emit))
    return false;
  for (const AxisRef& axis : axes) {
    auto overlaps = [&](const AxisRef& other) { return axisOverlaps(other, axis); };
    bool inOperand = std::any_of(info.operand->replicatedAxes.begin(),
                                 info.operand->replicatedAxes.end(), overlaps);
    for (const ir::DimensionSharding& dim : info.operand->dims)
      inOperand = inOperand || std::any_of(dim.axes.begin(), dim.axes.end(), overlaps);
    if (inOperand)
      return info.emit("reduction axis " + axisRefString(axis) +
                       " overlaps with operand dimension sharding or replicated axes");
    if (std::any_of(info.result.unreducedAxes.begin(), info.result.unreducedAxes.end(), overlaps))
      return info.emit("reduction axis " + axisRefString(axis) +
                       " overlaps with result unreduced axes");
  }
  // The reduction must use the operator the operand's unreduced axes were left with.
  std::string kind = "sum";
  if (const auto* k = info.op.attr("reduction_kind").as<ir::OpaqueAttr>())
    kind = k->text;
  bool reducesUnreduced = false;
  for (const AxisRef& axis : axes)
    for (const AxisRef& old : info.operand->unreducedAxes)
      reducesUnreduced = reducesUnreduced || axisOverlaps(old, axis);
  if (reducesUnreduced && reductionKindName(*info.operand) != kind)
    return info.emit("cannot reduce '" + reductionKindName(*info.operand) +
                     "' unreduced axes. Expected '" + kind + "'.");
  for (const AxisRef& axis : info.result.unreducedAxes) {
    bool inOperand = false;
    for (const AxisRef& old : info.operand->unreducedAxes)
      inOperand = inOperand || axisContains(old, axis);
    if (!inOperand)
      return info.emit("cannot add new unreduced axis '" + axis.name + "'.");
  }
  return true;
}

} // namespace

bool verifyCollective(const VerifyContext& ctx, const ir::Operation& op) {
  const auto* out = op.attr("out_sharding").as<ir::ShardingAttr>();
  if (!out || op.numOperands() != 1 || op.numResults() != 1)
    return true;
  CollectiveInfo info{op, opError(op, ctx.sink), out->sharding};
  if (!verifyCommon(ctx, info))
    return false;
  if (op.is("sdy.all_gather"))
    return verifyAxesPerDim(
        info, "gathering_axes",
        [&](const AxisList& dimAxes, std::span<const AxisRef> axes, size_t dim) {
          return gatherAlongDim(info, dimAxes, axes, dim, "gathering");
        });
  if (op.is("sdy.all_slice") || op.is("sdy.reduce_scatter"))
    return verifyAxesPerDim(info, op.is("sdy.all_slice") ? "slicing_axes" : "reduce_scatter_axes",
                            [&](const AxisList& dimAxes, std::span<const AxisRef> axes, size_t) {
                              return std::optional<AxisList>(sliceAlongDim(info, dimAxes, axes));
                            });
  if (op.is("sdy.sharded_to_unreduced"))
    return verifyShardedToUnreduced(info);
  if (op.is("sdy.replicated_to_unreduced"))
    return verifyReplicatedToUnreduced(info);
  if (op.is("sdy.all_to_all"))
    return verifyAllToAll(info);
  if (op.is("sdy.collective_permute"))
    return verifyCollectivePermute(info);
  if (op.is("sdy.all_reduce"))
    return verifyAllReduce(info);
  return true;
}

} // namespace shardscope::sharding::detail
