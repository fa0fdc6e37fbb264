#include "core/partition/detail/global_to_local_converter.h"

#include "core/partition/detail/mesh_groups.h"
#include "core/sharding/mesh_view.h"

#include <algorithm>
#include <cstdint>
#include <optional>

// -sdy-convert-global-to-local: Shardy's collectives become StableHLO ones with replica groups
// from the mesh; what can't move blocks directly goes through the replicated value.

namespace shardscope::partition::detail {
namespace {

using ir::AxisRef;
using ir::Operation;
using ir::TensorSharding;
using ir::Type;
using ir::Value;
using sharding::MeshView;
using sharding::ShardingLayout;

std::string reductionOp(const Operation& op) {
  const auto* kind = op.attr("reduction_kind").as<ir::OpaqueAttr>();
  std::string k = kind ? kind->text : "sum";
  if (k == "max")
    return "maximum";
  if (k == "min")
    return "minimum";
  if (k == "prod" || k == "mul" || k == "product")
    return "multiply";
  return "add";
}

bool sameShape(std::span<const int64_t> a, std::span<const int64_t> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

// Blocks of a non-divisible dimension are padded at the end, so the gathered tensor is the
// global one followed by padding: keep the leading `type` elements.
Value* dropPadding(HloBuilder& b, Value* value, Type type) {
  if (value->type() == type)
    return value;
  std::vector<int64_t> start(static_cast<size_t>(type.rank()), 0);
  std::vector<int64_t> limit(type.shape().begin(), type.shape().end());
  return b.slice(value, start, limit);
}

} // namespace

// With a dimension its shards don't divide, blocks of a coarser and a finer sharding of it don't
// nest (5 over 2 is blocks of 3, over 4 blocks of 2), so a collective that changes such a
// dimension's axes, other than to or from replicated, can't move blocks directly: it goes
// through the replicated value. All-to-alls need divisible dimensions on both sides.
bool GlobalToLocalConverter::needsReplication(const Operation& op) {
  auto inLayout = layoutOf(op.operand(0));
  auto outLayout = layoutOf(op.result(0));
  const GlobalInfo* in = info(op.operand(0));
  const GlobalInfo* out = info(op.result(0));
  if (!inLayout || !outLayout || !in || !out || !in->sharding || !out->sharding)
    return false;
  for (size_t d = 0; d < in->sharding->dims.size(); ++d) {
    const auto& inAxes = in->sharding->dims[d].axes;
    const auto& outAxes = out->sharding->dims[d].axes;
    if (inAxes == outAxes || (!inLayout->isPadded(d) && !outLayout->isPadded(d)))
      continue;
    if (op.is("sdy.all_to_all") || (!inAxes.empty() && !outAxes.empty()))
      return true;
  }
  return false;
}

// Gathers every sharded dimension, drops the padding, then cuts each device's output block out
// of the global value (padded to whole blocks).
void GlobalToLocalConverter::lowerViaReplication(Operation& op) {
  const GlobalInfo* in = info(op.operand(0));
  Value* out = reshardLocal(op, op.operand(0), in ? in->sharding : nullptr,
                            globalType(op.operand(0)), layoutOf(op.result(0)), op);
  std::vector<Value*> with{out};
  replace(op, with);
}

Value* GlobalToLocalConverter::reshardLocal(Operation& before, Value* input,
                                            const TensorSharding* inSharding, Type global,
                                            const ShardingLayout* outLayout,
                                            const Operation& source) {
  HloBuilder b = builder(before);
  Value* current = input;
  const ir::Mesh* inMesh = inSharding ? meshOf(*inSharding) : nullptr;
  if (inMesh) {
    MeshView view(*inMesh);
    for (size_t d = 0; d < inSharding->dims.size(); ++d) {
      const auto& axes = inSharding->dims[d].axes;
      if (axes.empty())
        continue;
      current = allGatherAlong(b, current, d, m_layouts.groupsAlong(view.mesh(), axes));
      logOp(current, source, "gathers dimension " + std::to_string(d) + " to the whole value");
    }
  }
  if (!sameShape(current->type().shape(), global.shape())) {
    std::vector<int64_t> start(static_cast<size_t>(global.rank()), 0);
    std::vector<int64_t> limit(global.shape().begin(), global.shape().end());
    current = b.slice(current, start, limit);
  }
  if (!outLayout)
    return current;
  std::vector<int64_t> padded = outLayout->paddedShape();
  std::vector<int64_t> low(padded.size(), 0), high(padded.size(), 0);
  bool pad = false;
  for (size_t d = 0; d < padded.size(); ++d) {
    high[d] = padded[d] - global.shape()[d];
    pad = pad || high[d] > 0;
  }
  if (pad)
    current = b.pad(current, b.zeros(Type::tensor({}, global.elementType())), low, high, low);
  std::vector<int64_t> local = outLayout->localShape();
  if (!sameShape(current->type().shape(), local)) {
    std::vector<Value*> starts;
    for (size_t d = 0; d < local.size(); ++d)
      starts.push_back(b.lookup(blockStarts(*outLayout, d, local[d])));
    current = b.dynamicSlice(current, starts, local);
    logOp(current, source, "each device keeps its block");
  }
  return current;
}

Value* GlobalToLocalConverter::allGatherAlong(HloBuilder& b, Value* value, size_t d,
                                              const std::vector<std::vector<int64_t>>& groups) {
  std::vector<int64_t> shape(value->type().shape().begin(), value->type().shape().end());
  shape[d] *= static_cast<int64_t>(groups.front().size());
  std::vector<Value*> operands{value};
  std::vector<Type> types{value->type().withShape(shape)};
  std::vector<ir::NamedAttribute> attrs{
      namedAttr("all_gather_dim", i64Attr(static_cast<int64_t>(d)))};
  for (auto& a : b.collectiveAttrs(m_layouts.groupsMatrix(groups), /*globalIds=*/true))
    attrs.push_back(std::move(a));
  return b.create("stablehlo.all_gather", operands, types, std::move(attrs))->result(0);
}

bool GlobalToLocalConverter::lowerAllGather(Operation& op) {
  if (needsReplication(op)) {
    lowerViaReplication(op);
    return true;
  }
  const auto* axes = op.attr("gathering_axes").as<ir::AxisRefListListAttr>();
  const ir::Mesh* mesh = shardedMesh(op.operand(0));
  if (!axes || !mesh)
    return true;
  MeshView view(*mesh);
  HloBuilder b = builder(op);
  Value* current = op.operand(0);
  Type resultType = op.result(0)->type();
  std::vector<size_t> gatheredDims;
  for (size_t d = 0; d < axes->lists.size(); ++d)
    if (!axes->lists[d].empty())
      gatheredDims.push_back(d);
  if (m_options.perDimAllGather || gatheredDims.size() <= 1) {
    for (size_t d : gatheredDims) {
      current = allGatherAlong(b, current, d, m_layouts.groupsAlong(view.mesh(), axes->lists[d]));
      logOp(current, op, "gathers dimension " + std::to_string(d));
    }
  } else {
    current = combinedAllGather(b, op, gatheredDims);
  }
  current = dropPadding(b, current, resultType);
  std::vector<Value*> with{current};
  replace(op, with);
  return true;
}

// One all-gather over every gathered axis, along a new leading dimension, then put each piece in
// place: [g0*g1*..., l...] -> [g0, g1, ..., l0, l1, ...] -> [g0, l0, g1, l1, ...].
Value* GlobalToLocalConverter::combinedAllGather(HloBuilder& b, Operation& op,
                                                 std::span<const size_t> dims) {
  const auto& lists = op.attr("gathering_axes").as<ir::AxisRefListListAttr>()->lists;
  MeshView view(*shardedMesh(op.operand(0)));
  Value* current = op.operand(0);
  std::vector<AxisRef> all;
  std::vector<int64_t> groupSizes;
  for (size_t d : dims) {
    all.insert(all.end(), lists[d].begin(), lists[d].end());
    int64_t n = 1;
    for (const AxisRef& a : lists[d])
      n *= view.sizeOf(a);
    groupSizes.push_back(n);
  }
  const std::vector<std::vector<int64_t>>& groups = m_layouts.groupsAlong(view.mesh(), all);
  std::span<const int64_t> localShape = current->type().shape();
  size_t rank = localShape.size();
  std::vector<int64_t> withLead{1};
  withLead.insert(withLead.end(), localShape.begin(), localShape.end());
  Value* lead = b.reshape(current, current->type().withShape(withLead));
  withLead[0] = static_cast<int64_t>(groups.front().size());
  std::vector<Value*> operands{lead};
  std::vector<Type> types{current->type().withShape(withLead)};
  std::vector<ir::NamedAttribute> attrs{namedAttr("all_gather_dim", i64Attr(0))};
  for (auto& a : b.collectiveAttrs(m_layouts.groupsMatrix(groups), /*globalIds=*/true))
    attrs.push_back(std::move(a));
  Value* gathered = b.create("stablehlo.all_gather", operands, types, std::move(attrs))->result(0);
  logOp(gathered, op, "gathers every dimension at once");
  std::vector<int64_t> split(groupSizes.begin(), groupSizes.end());
  split.insert(split.end(), localShape.begin(), localShape.end());
  Value* pieces = b.reshape(gathered, current->type().withShape(split));
  std::vector<int64_t> perm;
  size_t g = dims.size();
  for (size_t d = 0; d < rank; ++d) {
    auto it = std::find(dims.begin(), dims.end(), d);
    if (it != dims.end())
      perm.push_back(static_cast<int64_t>(it - dims.begin()));
    perm.push_back(static_cast<int64_t>(g + d));
  }
  std::vector<int64_t> gatheredShape(localShape.begin(), localShape.end());
  for (size_t i = 0; i < dims.size(); ++i)
    gatheredShape[dims[i]] *= groupSizes[i];
  return b.reshape(b.transpose(pieces, perm), current->type().withShape(gatheredShape));
}

bool GlobalToLocalConverter::lowerAllReduce(Operation& op) {
  const auto* axes = op.attr("reduction_axes").as<ir::AxisRefListAttr>();
  const ir::Mesh* mesh = shardedMesh(op.result(0));
  if (!axes || !mesh)
    return true;
  Value* input = op.operand(0);
  if (axes->axes.empty()) {
    std::vector<Value*> with{input};
    replace(op, with);
    return true;
  }
  HloBuilder b = builder(op);
  std::vector<Value*> operands{input};
  std::vector<Type> types{op.result(0)->type()};
  Operation* reduce =
      b.create("stablehlo.all_reduce", operands, types,
               b.collectiveAttrs(m_layouts.groupsMatrix(m_layouts.groupsAlong(*mesh, axes->axes)),
                                 /*globalIds=*/true));
  b.addReductionRegion(*reduce, input->type().elementType(), reductionOp(op));
  logOp(reduce->result(0), op, "reduces partial values over the reduction axes");
  std::vector<Value*> with{reduce->result(0)};
  replace(op, with);
  return true;
}

bool GlobalToLocalConverter::lowerReduceScatter(Operation& op) {
  const auto* axes = op.attr("reduce_scatter_axes").as<ir::AxisRefListListAttr>();
  const ir::Mesh* mesh = shardedMesh(op.result(0));
  if (!axes || !mesh)
    return true;
  MeshView view(*mesh);
  HloBuilder b = builder(op);
  Value* current = op.operand(0);
  for (size_t d = 0; d < axes->lists.size(); ++d) {
    if (axes->lists[d].empty())
      continue;
    const std::vector<std::vector<int64_t>>& groups =
        m_layouts.groupsAlong(view.mesh(), axes->lists[d]);
    std::vector<int64_t> shape(current->type().shape().begin(), current->type().shape().end());
    shape[d] /= static_cast<int64_t>(groups.front().size());
    std::vector<Value*> operands{current};
    std::vector<Type> types{current->type().withShape(shape)};
    std::vector<ir::NamedAttribute> attrs{
        namedAttr("scatter_dimension", i64Attr(static_cast<int64_t>(d)))};
    for (auto& a : b.collectiveAttrs(m_layouts.groupsMatrix(groups), /*globalIds=*/true))
      attrs.push_back(std::move(a));
    Operation* rs = b.create("stablehlo.reduce_scatter", operands, types, std::move(attrs));
    b.addReductionRegion(*rs, current->type().elementType(), reductionOp(op));
    current = rs->result(0);
    logOp(current, op, "reduces and scatters dimension " + std::to_string(d));
  }
  std::vector<Value*> with{current};
  replace(op, with);
  return true;
}

bool GlobalToLocalConverter::lowerAllToAll(Operation& op) {
  if (needsReplication(op)) {
    lowerViaReplication(op);
    return true;
  }
  const auto* params = op.attr("params").as<ir::AllToAllParamsAttr>();
  const ir::Mesh* mesh = shardedMesh(op.operand(0));
  if (!params || !mesh)
    return true;
  MeshView view(*mesh);
  HloBuilder b = builder(op);
  Value* current = op.operand(0);
  for (const ir::AllToAllParam& p : params->params) {
    const std::vector<std::vector<int64_t>>& groups = m_layouts.groupsAlong(view.mesh(), p.axes);
    int64_t n = static_cast<int64_t>(groups.front().size());
    std::vector<int64_t> shape(current->type().shape().begin(), current->type().shape().end());
    shape[static_cast<size_t>(p.tgtDim)] /= n;
    shape[static_cast<size_t>(p.srcDim)] *= n;
    std::vector<Value*> operands{current};
    std::vector<Type> types{current->type().withShape(shape)};
    std::vector<ir::NamedAttribute> attrs{namedAttr("split_dimension", i64Attr(p.tgtDim)),
                                          namedAttr("concat_dimension", i64Attr(p.srcDim)),
                                          namedAttr("split_count", i64Attr(n))};
    for (auto& a : b.collectiveAttrs(m_layouts.groupsMatrix(groups), /*globalIds=*/false))
      attrs.push_back(std::move(a));
    current = b.create("stablehlo.all_to_all", operands, types, std::move(attrs))->result(0);
    logOp(current, op,
          "moves the axes from dimension " + std::to_string(p.srcDim) + " to " +
              std::to_string(p.tgtDim));
  }
  std::vector<Value*> with{current};
  replace(op, with);
  return true;
}

bool GlobalToLocalConverter::lowerCollectivePermute(Operation& op) {
  auto inLayout = layoutOf(op.operand(0));
  auto outLayout = layoutOf(op.result(0));
  if (!inLayout || !outLayout)
    return true;
  // Each device receives its output block from a device holding it in the input: itself when
  // it can (a self loop), else the first holder not already sending.
  const std::vector<sharding::DeviceBlock>& inBlocks = m_layouts.blocks(*inLayout);
  std::vector<std::vector<int64_t>> pairs;
  std::vector<int64_t> usedSources;
  for (const sharding::DeviceBlock& target : m_layouts.blocks(*outLayout)) {
    std::optional<int64_t> source;
    for (const sharding::DeviceBlock& holder : inBlocks)
      if (holder.ranges == target.ranges && holder.deviceId == target.deviceId)
        source = holder.deviceId;
    if (!source)
      for (const sharding::DeviceBlock& holder : inBlocks)
        if (holder.ranges == target.ranges && std::find(usedSources.begin(), usedSources.end(),
                                                        holder.deviceId) == usedSources.end()) {
          source = holder.deviceId;
          break;
        }
    if (!source) {
      // Not a permutation of whole blocks (the shardings differ in more than device order).
      lowerViaReplication(op);
      return true;
    }
    usedSources.push_back(*source);
    pairs.push_back({*source, target.deviceId});
  }
  HloBuilder b = builder(op);
  std::vector<Value*> operands{op.operand(0)};
  std::vector<Type> types{op.result(0)->type()};
  std::vector<ir::NamedAttribute> attrs{namedAttr("source_target_pairs", i64Matrix(pairs))};
  if (!m_model.usesReplicas())
    attrs.push_back(namedAttr("channel_handle", b.channelHandle()));
  Value* out =
      b.create("stablehlo.collective_permute", operands, types, std::move(attrs))->result(0);
  logOp(out, op, "sends each block to the device that holds it after the permutation");
  std::vector<Value*> with{out};
  replace(op, with);
  return true;
}

bool GlobalToLocalConverter::lowerAllSlice(Operation& op) {
  if (needsReplication(op)) {
    lowerViaReplication(op);
    return true;
  }
  auto outLayout = layoutOf(op.result(0));
  if (!outLayout)
    return true;
  auto inLayout = layoutOf(op.operand(0));
  HloBuilder b = builder(op);
  std::span<const int64_t> outLocal = op.result(0)->type().shape();
  std::span<const int64_t> inLocal = op.operand(0)->type().shape();
  std::vector<Value*> starts;
  for (size_t d = 0; d < outLocal.size(); ++d) {
    int64_t size = outLocal[d];
    // The device's offset inside its input block: its output block start minus its input block
    // start (the sliced axes are minor to the input's).
    starts.push_back(b.lookup(table(*outLayout, [&](const sharding::DeviceBlock& blk) {
      int64_t inStart = 0;
      if (inLayout)
        if (const sharding::DeviceBlock* inBlock = m_layouts.blockOf(*inLayout, blk.deviceId))
          inStart = inBlock->shardIndex[d] * inLocal[d];
      return blk.shardIndex[d] * size - inStart;
    })));
  }
  std::vector<int64_t> sizes(outLocal.begin(), outLocal.end());
  // A dynamic slice clamps its start, so a non-divisible dimension is first padded to whole
  // blocks (the last device's block is padding).
  Value* input = op.operand(0);
  std::vector<int64_t> high(outLocal.size(), 0);
  bool padded = false;
  for (size_t d = 0; d < outLocal.size(); ++d) {
    // Pieces per input block: the size of the sliced axes of this dimension.
    int64_t inShards = inLayout ? std::max<int64_t>(inLayout->shardsPerDim()[d], 1) : 1;
    int64_t need = outLocal[d] * (outLayout->shardsPerDim()[d] / inShards);
    high[d] = std::max<int64_t>(0, need - inLocal[d]);
    padded = padded || high[d] > 0;
  }
  if (padded)
    input = b.pad(input, b.zeros(Type::tensor({}, input->type().elementType())),
                  std::vector<int64_t>(outLocal.size(), 0), high,
                  std::vector<int64_t>(outLocal.size(), 0));
  Value* out = b.dynamicSlice(input, starts, sizes);
  logOp(out, op, "each device keeps its slice along the sliced axes");
  std::vector<Value*> with{out};
  replace(op, with);
  return true;
}

// Replicated to unreduced over `axes`: the devices at index 0 along the axes keep the value, the
// others hold zeros, so that the sum over the axes is the value.
bool GlobalToLocalConverter::lowerReplicatedToUnreduced(Operation& op) {
  const auto* axes = op.attr("axes").as<ir::AxisRefListAttr>();
  const GlobalInfo* out = info(op.result(0));
  if (!axes || !out || !out->sharding || !meshOf(*out->sharding))
    return true;
  MeshView view(*meshOf(*out->sharding));
  std::vector<int64_t> isFirst(1, 0);
  for (int64_t p = 0; p < view.totalSize(); ++p) {
    int64_t id = view.deviceIdAt(p);
    if (static_cast<int64_t>(isFirst.size()) <= id)
      isFirst.resize(static_cast<size_t>(id + 1), 0);
    isFirst[static_cast<size_t>(id)] = indexAlongAxes(view, axes->axes, p) == 0;
  }
  HloBuilder b = builder(op);
  Value* input = op.operand(0);
  Value* keep = b.compare("EQ", b.lookup(isFirst), b.scalarI64(1));
  Type pred = Type::tensor(input->type().shape(), ir::ElementType::I1);
  Value* outValue = b.select(b.broadcast(keep, pred, {}), input, b.zeros(input->type()));
  logOp(outValue, op, "devices past the first along the axes hold zeros");
  std::vector<Value*> with{outValue};
  replace(op, with);
  return true;
}

// Sharded to unreduced: each device writes its block into zeros of the (less sharded) result
// block, so that the sum over the axes is the value.
bool GlobalToLocalConverter::lowerShardedToUnreduced(Operation& op) {
  auto inLayout = layoutOf(op.operand(0));
  auto outLayout = layoutOf(op.result(0));
  if (!inLayout)
    return true;
  HloBuilder b = builder(op);
  Value* input = op.operand(0);
  std::span<const int64_t> inLocal = input->type().shape();
  std::span<const int64_t> outLocal = op.result(0)->type().shape();
  size_t rank = inLocal.size();
  std::vector<std::vector<int64_t>> offsets(rank);
  std::vector<int64_t> target(outLocal.begin(), outLocal.end());
  for (size_t d = 0; d < rank; ++d) {
    offsets[d] = table(*inLayout, [&](const sharding::DeviceBlock& blk) {
      int64_t outStart = 0;
      if (outLayout)
        if (const sharding::DeviceBlock* o = m_layouts.blockOf(*outLayout, blk.deviceId))
          outStart = o->shardIndex[d] * outLocal[d];
      return blk.shardIndex[d] * inLocal[d] - outStart;
    });
    // Room for the padding of the last block, cut off below.
    for (int64_t v : offsets[d])
      target[d] = std::max(target[d], v + inLocal[d]);
  }
  Value* zeros = b.zeros(input->type().withShape(target));
  std::vector<Value*> operands{zeros, input};
  for (size_t d = 0; d < rank; ++d)
    operands.push_back(b.lookup(offsets[d]));
  Value* written = b.create1("stablehlo.dynamic_update_slice", operands, zeros->type());
  logOp(written, op, "each device places its block among zeros");
  if (!sameShape(target, outLocal)) {
    std::vector<int64_t> begin(rank, 0);
    written = b.slice(written, begin, {outLocal.begin(), outLocal.end()});
  }
  std::vector<Value*> with{written};
  replace(op, with);
  return true;
}

} // namespace shardscope::partition::detail
