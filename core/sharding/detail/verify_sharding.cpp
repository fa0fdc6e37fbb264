// Verification of meshes, axis refs and tensor shardings, with Shardy's message texts.
#include "core/sharding/axis_refs.h"
#include "core/sharding/detail/verify_support.h"

#include <algorithm>

namespace shardscope::sharding::detail {

using ir::AxisRef;

bool verifyMesh(const ir::Mesh& mesh, const ErrorEmitter& emit) {
  // MeshAxisAttr::verify runs while each axis is parsed, before the mesh's own checks.
  for (const ir::MeshAxis& axis : mesh.axes)
    if (axis.size < 1) // normally rejected while parsing already
      return emit("axis size must be at least 1, got: " + std::to_string(axis.size));
  // MeshAttr::verify, in its order.
  for (int64_t id : mesh.deviceIds)
    if (id < 0)
      return emit("device id must be non-negative, got: " + std::to_string(id));
  if (mesh.axes.empty()) {
    // No device ids: the empty mesh; one: a maximal mesh.
    if (mesh.deviceIds.size() > 1)
      return emit("axes is empty and device_ids has more than one element");
    return true;
  }
  for (size_t i = 0; i < mesh.axes.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (mesh.axes[i].name == mesh.axes[j].name)
        return emit("duplicate axis name: \"" + mesh.axes[i].name + "\"");
  if (mesh.deviceIds.empty())
    return true; // iota(product(axes))
  int64_t product = MeshView(mesh).totalSize();
  int64_t count = static_cast<int64_t>(mesh.deviceIds.size());
  if (product != count)
    return emit("total product of axis sizes must match total number of device ids, got: " +
                std::to_string(product) + " != " + std::to_string(count));
  std::vector<int64_t> sorted = mesh.deviceIds;
  std::sort(sorted.begin(), sorted.end());
  bool iota = true;
  for (size_t i = 0; i < sorted.size(); ++i)
    iota = iota && sorted[i] == static_cast<int64_t>(i);
  if (!iota) {
    std::string list;
    for (size_t i = 0; i < sorted.size(); ++i)
      list += (i ? ", " : "") + std::to_string(sorted[i]);
    return emit("sorted device ids must be iota(product(axes)), got: " + list);
  }
  // Explicit iota device ids never reach Shardy's "no need to specify them" check: MeshAttr's
  // builder drops them while parsing. They are accepted here for the same reason.
  return true;
}

bool verifyAxisRefList(std::span<const AxisRef> axes, const MeshView& mesh, AxisRefTracker& tracker,
                       const ErrorEmitter& emit) {
  const AxisRef* prev = nullptr;
  for (const AxisRef& axis : axes) {
    if (!mesh.hasAxis(axis.name))
      return emit("unknown axis name: \"" + axis.name + "\"");
    if (std::find(tracker.seen.begin(), tracker.seen.end(), axis) != tracker.seen.end())
      return emit("duplicate axis ref: " + axisRefString(axis));
    tracker.seen.push_back(axis);
    if (!axis.subAxis) {
      prev = &axis;
      continue;
    }
    auto it = std::find_if(tracker.subAxes.begin(), tracker.subAxes.end(),
                           [&](const auto& entry) { return entry.first == axis.name; });
    if (it == tracker.subAxes.end())
      tracker.subAxes.push_back({axis.name, {axis}});
    else
      it->second.push_back(axis);
    // Overlapping sub-axes are reported by `verifySubAxes`.
    if (prev && axisCanMerge(*prev, axis))
      return emit("two consecutive sub-axes can be merged: " + axisRefString(*prev) + ", " +
                  axisRefString(axis));
    prev = &axis;
  }
  return true;
}

bool verifySortedAxisRefList(std::span<const AxisRef> axes, const MeshView& mesh,
                             AxisRefTracker& tracker, const ErrorEmitter& emit,
                             std::string_view what) {
  if (!isMeshSorted(mesh, axes))
    return emit(std::string(what) + " axes are not ordered w.r.t. mesh");
  return verifyAxisRefList(axes, mesh, tracker, emit);
}

bool verifySubAxes(const AxisRefTracker& tracker, const MeshView& mesh, const ErrorEmitter& emit) {
  for (const auto& [name, unsorted] : tracker.subAxes) {
    int64_t fullSize = mesh.axisSize(name);
    if (!unsorted.empty() && std::find(tracker.seen.begin(), tracker.seen.end(),
                                       AxisRef{name, std::nullopt}) != tracker.seen.end())
      return emit("both sub-axis and full-axis are used for axis name: \"" + name + "\"");
    std::vector<AxisRef> subAxes = unsorted;
    std::sort(subAxes.begin(), subAxes.end(),
              [&](const AxisRef& a, const AxisRef& b) { return axisMeshLess(mesh, a, b); });
    const AxisRef* prev = nullptr;
    for (const AxisRef& sub : subAxes) {
      int64_t preSize = sub.subAxis->preSize;
      int64_t size = sub.subAxis->size;
      if (preSize < 1)
        return emit("sub-axis pre-size must be at least 1: " + axisRefString(sub));
      if (size <= 1)
        return emit("sub-axis sizes must be greater than 1: " + axisRefString(sub));
      int64_t next = preSize * size;
      if (fullSize % next != 0)
        return emit("sub-axis next pre-size " + std::to_string(next) +
                    " doesn't divide the size of the full axis " + std::to_string(fullSize) + ": " +
                    axisRefString(sub));
      if (size == fullSize)
        return emit("sub-axis size is equal to the full axis size: " + axisRefString(sub));
      int64_t prevNext = prev ? prev->subAxis->preSize * prev->subAxis->size : 1;
      if (prevNext > preSize)
        return emit("overlapping sub-axes: " + axisRefString(*prev) + ", " + axisRefString(sub));
      prev = &sub;
    }
  }
  return true;
}

namespace {

bool emitBoundManualAxis(const ErrorEmitter& emit, const ManualAxisOwner& owner) {
  return emit("operates on axis \"" + owner.axis +
                  "\" which is already bound by a parent sdy.manual_computation op",
              {{"parent bounding this axis as manual", owner.owner->loc()}});
}

std::string shardingText(const ir::TensorSharding& sharding) {
  return ir::Attribute::sharding(sharding).str();
}

} // namespace

bool verifyTensorSharding(const ir::TensorSharding& sharding, ir::Type type, const ir::Mesh& mesh,
                          const ErrorEmitter& emit,
                          std::span<const ManualAxisOwner> manualParents) {
  MeshView view(mesh);
  bool hasExtraAxes = !sharding.replicatedAxes.empty() || !sharding.unreducedAxes.empty();
  if (view.isMaximal() || (!type && isFullyReplicated(sharding))) {
    // A maximal sharding runs the op on one device: only the rank-0 form makes sense.
    if (!sharding.dims.empty() || hasExtraAxes)
      return emit("a maximal sharding can only have a sharding with rank 0 and no replicated or "
                  "unreduced axes.");
    return true;
  }
  ir::Type valueType = type;
  if (type && type.kind() == ir::Type::Kind::Tuple) {
    if (type.elements().size() != 1)
      return emit("ops can only have a sharding for a tuple of size 1: " + quotedType(type));
    valueType = type.elements()[0];
  }
  if (!isShapedType(valueType)) {
    if (!sharding.dims.empty() || hasExtraAxes)
      return emit("non-shaped tensors can only have a sharding with rank 0 and no replicated or "
                  "unreduced axes. type: " +
                  quotedType(type) + ", sharding: " + shardingText(sharding));
    return true;
  }
  if (isUnrankedTensor(valueType))
    return emit("only ranked tensors can have a sharding. type: " + quotedType(type));

  int64_t rank = valueType.rank();
  if (static_cast<int64_t>(sharding.dims.size()) != rank)
    return emit("sharding doesn't match tensor rank: " + std::to_string(sharding.dims.size()) +
                " != " + std::to_string(rank));

  AxisRefTracker tracker;
  for (size_t dim = 0; dim < sharding.dims.size(); ++dim) {
    const ir::DimensionSharding& dimSharding = sharding.dims[dim];
    if (dimSharding.priority) {
      if (*dimSharding.priority < 0)
        return emit("dim " + std::to_string(dim) + " has a negative priority");
      if (dimSharding.isClosed && dimSharding.axes.empty())
        return emit("dim " + std::to_string(dim) + " is empty and closed but has a priority");
    }
    if (!verifyAxisRefList(dimSharding.axes, view, tracker, emit))
      return false;
  }
  if (!verifySortedAxisRefList(sharding.replicatedAxes, view, tracker, emit, "replicated") ||
      !verifySortedAxisRefList(sharding.unreducedAxes, view, tracker, emit, "unreduced") ||
      !verifySubAxes(tracker, view, emit))
    return false;

  // Axes bound as manual by an enclosing manual computation can't shard or replicate this value.
  if (!manualParents.empty()) {
    auto check = [&](const AxisRef& axis) {
      for (const ManualAxisOwner& owner : manualParents)
        if (owner.axis == axis.name)
          return emitBoundManualAxis(emit, owner);
      return true;
    };
    for (const ir::DimensionSharding& dim : sharding.dims)
      for (const AxisRef& axis : dim.axes)
        if (!check(axis))
          return false;
    // Shardy's `anyOfAxisRef`: unreduced axes too.
    for (const std::vector<AxisRef>* axes : {&sharding.replicatedAxes, &sharding.unreducedAxes})
      for (const AxisRef& axis : *axes)
        if (!check(axis))
          return false;
  }
  return true;
}

bool verifyShardingForOp(const VerifyContext& ctx, const ir::TensorSharding& sharding,
                         ir::Type type, const ir::Operation& op, const ErrorEmitter& emit) {
  const ir::Mesh* mesh = ctx.meshOf(sharding);
  if (!mesh)
    return emit("unknown mesh: @" + sharding.meshName);
  std::vector<ManualAxisOwner> parents = parentManualAxes(op);
  return verifyTensorSharding(sharding, type, *mesh, emit, parents);
}

bool verifyShardingList(const VerifyContext& ctx, std::span<const ir::TensorSharding> shardings,
                        std::span<const ir::Type> types, const ir::Operation& op,
                        const ErrorEmitter& emit) {
  if (types.empty() && shardings.size() == 1) {
    // An op without results may still carry one maximal or fully replicated sharding, which
    // says where the op runs.
    const ir::TensorSharding& first = shardings.front();
    const ir::Mesh* mesh = ctx.meshOf(first);
    if (mesh && (MeshView(*mesh).isMaximal() || isFullyReplicated(first)))
      return verifyShardingForOp(ctx, first, ir::Type(), op, valueEmitter(emit, 0, 0));
  }
  if (shardings.size() != types.size())
    return emit("shardings don't match number of values: " + std::to_string(shardings.size()) +
                " shardings vs " + std::to_string(types.size()) + " values");
  for (size_t i = 0; i < shardings.size(); ++i)
    if (!verifyShardingForOp(ctx, shardings[i], types[i], op, valueEmitter(emit, types.size(), i)))
      return false;
  return true;
}

bool verifyFuncShardings(const VerifyContext& ctx, const ir::Operation& func) {
  ir::Type fnType = ir::func::type(func);
  if (!fnType || fnType.kind() != ir::Type::Kind::Function)
    return true;
  auto verifyEntry = [&](const ir::DictionaryAttr* attrs, ir::Type type, const char* kind,
                         size_t index) {
    if (!attrs)
      return true;
    ir::Attribute value = attrs->get("sdy.sharding");
    if (!value)
      return true;
    ErrorEmitter emit =
        opError(func, ctx.sink).extended(std::string(kind) + " " + std::to_string(index) + " - ");
    const auto* sharding = value.as<ir::ShardingAttr>();
    if (!sharding)
      return emit("should have a sharding attribute of type TensorShardingAttr");
    return verifyShardingForOp(ctx, sharding->sharding, type, func, emit);
  };
  std::span<const ir::Type> inputs = fnType.elements();
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!verifyEntry(ir::func::argAttrs(func, static_cast<unsigned>(i)), inputs[i], "arg", i))
      return false;
  std::span<const ir::Type> results = fnType.results();
  for (size_t i = 0; i < results.size(); ++i)
    if (!verifyEntry(ir::func::resultAttrs(func, static_cast<unsigned>(i)), results[i], "result",
                     i))
      return false;
  return true;
}

} // namespace shardscope::sharding::detail
