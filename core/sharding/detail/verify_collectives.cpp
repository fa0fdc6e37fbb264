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
  const ir::Mesh* mesh = nullptr; // the result mesh
};

bool allowsMissingInputSharding(const ir::Operation& op) {
  return op.is("sdy.all_slice") || op.is("sdy.all_reduce") || op.is("sdy.reduce_scatter");
}

// Resolves the operand sharding (Shardy's `getOrCreateSharding` when it has none) and the mesh.
void resolveInfo(const VerifyContext& ctx, CollectiveInfo& info) {
  const ir::Operation& op = info.op;
  const ir::TensorSharding* operand = valueShardingRef(*op.operand(0), info.operandStorage);
  info.mesh = ctx.meshOf(info.result);
  if (operand) {
    info.operand = operand;
    return;
  }
  // Fully closed and replicated, on the result's mesh.
  ir::TensorSharding& replicated = info.operandStorage.emplace(info.result);
  ir::Type type = op.operand(0)->type();
  replicated.dims.assign(type.isTensor() ? static_cast<size_t>(type.rank()) : 0, {});
  replicated.replicatedAxes.clear();
  replicated.unreducedAxes.clear();
  replicated.unreducedKind.clear();
  info.operand = &replicated;
}

// The note Shardy attaches to mesh mismatches: the operand's mesh, at the operand (a block
// argument is located at its owner here).
std::vector<support::DiagnosticNote> operandMeshNote(const CollectiveInfo& info,
                                                     const ir::Mesh& mesh) {
  const ir::Value& input = *info.op.operand(0);
  const ir::Operation* locOwner =
      input.definingOp() ? input.definingOp() : input.ownerBlock()->parentOp();
  return {{"operand mesh: " + ir::Attribute::mesh(mesh).str(),
           locOwner ? locOwner->loc() : info.op.loc()}};
}

// Shardy's `verifyCollectiveOp` (the interface's `verify()`): 1. operand has a sharding, 2. the
// result sharding is valid, 3. same mesh, 4. same rank.
bool verifyCommon(const VerifyContext& ctx, CollectiveInfo& info) {
  const ir::Operation& op = info.op;
  std::optional<ir::TensorSharding> storage;
  const ir::TensorSharding* operand = valueShardingRef(*op.operand(0), storage);
  if (!operand && !allowsMissingInputSharding(op))
    return info.emit("collective on operand without sharding");
  if (!verifyShardingForOp(ctx, info.result, op.result(0)->type(), op, info.emit))
    return false;
  const ir::Mesh* mesh = ctx.meshOf(info.result);
  const ir::Mesh* operandMesh = operand ? ctx.meshOf(*operand) : nullptr;
  // collective_permute allows different meshes; its own check compares their axes.
  if (!op.is("sdy.collective_permute") && operandMesh && !(*operandMesh == *mesh))
    return info.emit("result mesh does not match operand mesh", operandMeshNote(info, *operandMesh));
  if (operand && operand->dims.size() != info.result.dims.size())
    return info.emit("result sharding has rank " + std::to_string(info.result.dims.size()) +
                     " but operand sharding has rank " + std::to_string(operand->dims.size()));
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
  if (reductionKindName(info.result) != "sum")
    return info.emit("out_sharding reduction_op must be SUM");
  return true;
}

bool verifyShardedToUnreduced(const CollectiveInfo& info) {
  if (!verifyOutReductionIsSum(info) ||
      !verifyAxesPerDim(info, "sharding_axes",
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
  return true;
}

bool verifyReplicatedToUnreduced(const CollectiveInfo& info) {
  if (!verifyOutReductionIsSum(info))
    return false;
  // The whole dimension shardings (axes, closedness, priority) must be the same.
  if (info.operand->dims != info.result.dims)
    return info.emit("input and output must share the same dimension shardings");
  const auto* attr = info.op.attr("axes").as<ir::AxisRefListAttr>();
  if (!attr || attr->axes.empty())
    return info.emit("r2u axes must not be empty");
  const AxisList& axes = attr->axes;
  MeshView mesh(*info.mesh);
  AxisRefTracker tracker;
  if (!verifySortedAxisRefList(axes, mesh, tracker, info.emit, "r2u"))
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
  return true;
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

bool verifyCollectivePermute(const VerifyContext& ctx, const CollectiveInfo& info) {
  // Different meshes are allowed as long as they have the same axes.
  if (const ir::Mesh* operandMesh = ctx.meshOf(*info.operand)) {
    if (operandMesh->axes != info.mesh->axes)
      return info.emit("result mesh has different axes than operand mesh",
                       operandMeshNote(info, *operandMesh));
    if (info.operand->meshName != info.result.meshName &&
        operandMesh->deviceIds == info.mesh->deviceIds)
      return info.emit("result mesh name is different but same device ids as operand",
                       operandMeshNote(info, *operandMesh));
  }
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

// Shardy's `TensorShardingAttr::isEquivalent` ignoring unreduced axes: both replicated, or the
// same mesh reference and the same axes in every dimension.
bool equivalentIgnoringUnreduced(const ir::TensorSharding& a, const ir::TensorSharding& b) {
  auto replicated = [](const ir::TensorSharding& s) {
    return std::all_of(s.dims.begin(), s.dims.end(),
                       [](const ir::DimensionSharding& d) { return d.axes.empty(); });
  };
  if (replicated(a))
    return replicated(b);
  bool sameMeshRef = a.meshName == b.meshName &&
                     (a.inlineMesh == b.inlineMesh ||
                      (a.inlineMesh && b.inlineMesh && *a.inlineMesh == *b.inlineMesh));
  if (!sameMeshRef || a.dims.size() != b.dims.size())
    return false;
  for (size_t dim = 0; dim < a.dims.size(); ++dim)
    if (a.dims[dim].axes != b.dims[dim].axes)
      return false;
  return true;
}

std::string reductionKindOf(const ir::Operation& op) {
  if (const auto* k = op.attr("reduction_kind").as<ir::OpaqueAttr>())
    return k->text;
  return "sum";
}

// The unreduced axes of the result may only be kept from the operand, and those the op reduces
// must have the op's reduction operator.
bool verifyReducingTransition(const VerifyContext& ctx, const CollectiveInfo& info) {
  const ir::TensorSharding* operands[] = {info.operand};
  const ir::TensorSharding* results[] = {&info.result};
  return verifyUnreducedAxesTransition(
      ctx, info.emit, {operands, results, std::nullopt, reductionKindOf(info.op)});
}

bool verifyAllReduce(const VerifyContext& ctx, const CollectiveInfo& info) {
  if (!equivalentIgnoringUnreduced(*info.operand, info.result))
    return info.emit("operand and result shardings are not equivalent");
  const auto* attr = info.op.attr("reduction_axes").as<ir::AxisRefListAttr>();
  AxisList axes = attr ? attr->axes : AxisList{};
  MeshView mesh(*info.mesh);
  AxisRefTracker tracker;
  if (!verifySortedAxisRefList(axes, mesh, tracker, info.emit, "reduction"))
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
  return verifyReducingTransition(ctx, info);
}

bool verifyReduceScatter(const VerifyContext& ctx, const CollectiveInfo& info) {
  if (!verifyReducingTransition(ctx, info))
    return false;
  return verifyAxesPerDim(info, "reduce_scatter_axes",
                          [&](const AxisList& dimAxes, std::span<const AxisRef> axes, size_t) {
                            return std::optional<AxisList>(sliceAlongDim(info, dimAxes, axes));
                          });
}

} // namespace

bool verifyCollectiveInvariants(const VerifyContext& ctx, const ir::Operation& op) {
  const auto* out = op.attr("out_sharding").as<ir::ShardingAttr>();
  if (!out || op.numOperands() != 1 || op.numResults() != 1)
    return true;
  CollectiveInfo info{op, opError(op, ctx.sink), out->sharding};
  return verifyCommon(ctx, info);
}

bool verifyCollectiveSymbolUses(const VerifyContext& ctx, const ir::Operation& op) {
  const auto* out = op.attr("out_sharding").as<ir::ShardingAttr>();
  if (!out || op.numOperands() != 1 || op.numResults() != 1)
    return true;
  CollectiveInfo info{op, opError(op, ctx.sink), out->sharding};
  resolveInfo(ctx, info);
  if (!info.mesh)
    return true; // reported by the invariants
  if (op.is("sdy.all_gather"))
    return verifyAxesPerDim(
        info, "gathering_axes",
        [&](const AxisList& dimAxes, std::span<const AxisRef> axes, size_t dim) {
          return gatherAlongDim(info, dimAxes, axes, dim, "gathering");
        });
  if (op.is("sdy.all_slice"))
    return verifyAxesPerDim(info, "slicing_axes",
                            [&](const AxisList& dimAxes, std::span<const AxisRef> axes, size_t) {
                              return std::optional<AxisList>(sliceAlongDim(info, dimAxes, axes));
                            });
  if (op.is("sdy.reduce_scatter"))
    return verifyReduceScatter(ctx, info);
  if (op.is("sdy.sharded_to_unreduced"))
    return verifyShardedToUnreduced(info);
  if (op.is("sdy.replicated_to_unreduced"))
    return verifyReplicatedToUnreduced(info);
  if (op.is("sdy.all_to_all"))
    return verifyAllToAll(info);
  if (op.is("sdy.collective_permute"))
    return verifyCollectivePermute(ctx, info);
  if (op.is("sdy.all_reduce"))
    return verifyAllReduce(ctx, info);
  return true;
}

} // namespace shardscope::sharding::detail
