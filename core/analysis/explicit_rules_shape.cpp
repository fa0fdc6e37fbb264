// Explicit-sharding rules of the shape ops other than reshape, after jax/_src/lax/lax.py
// (`_transpose_sharding_rule`, `_broadcast_in_dim_sharding_rule`, `_concatenate_sharding_rule`,
// `_reduce_sharding_rule`, `_pad_sharding_rule`) and jax/_src/lax/slicing.py
// (`_slice_sharding_rule`, `_get_sharding_for_varying_out_shape`).
#include "core/analysis/detail/explicit_rule_support.h"

#include <algorithm>

namespace shardscope::analysis::detail {

namespace {

// Python's `str()` of one spec entry: `X` for a single axis (a str prints without quotes),
// `('X', 'Y')` for several.
std::string dimSpecStr(const DimSpec& dim) {
  if (dim.size() == 1)
    return dim.front().name;
  return dimSpecRepr(dim);
}

// `_get_sharding_for_varying_out_shape(out_shape, operand, name)`: a sharded dimension may change
// size only to a multiple of its number of shards; the result keeps the operand's sharding.
RuleOutcome varyingOutShape(const RuleInput& in, std::string_view name) {
  if (in.operands.empty() || in.op.numResults() != 1 || !in.op.result(0)->type().isTensor())
    return {};
  const ExplicitType& operand = in.operands[0];
  std::span<const int64_t> outShape = in.op.result(0)->type().shape();
  std::span<const int64_t> opShape = operand.type.shape();
  // A result of rank 0 or of size-1 dimensions only is unsharded (`P()`).
  if (std::all_of(outShape.begin(), outShape.end(), [](int64_t d) { return d == 1; })) {
    ExplicitType result = operand;
    result.type = in.op.result(0)->type();
    result.dims.assign(outShape.size(), DimSpec{});
    return typed({std::move(result)});
  }
  for (size_t d = 0; d < operand.dims.size() && d < outShape.size() && d < opShape.size(); ++d) {
    const DimSpec& spec = operand.dims[d];
    int64_t shards = specSize(in.context, operand.mesh, spec);
    if (opShape[d] == outShape[d] || spec.empty() || outShape[d] % shards == 0)
      continue;
    return shardingTypeError(std::string(name) + " on sharded dims where out dim (" +
                             std::to_string(outShape[d]) + ") is not divisible by mesh axes (" +
                             std::to_string(shards) + ") with spec (" + dimSpecStr(spec) +
                             ") is not implemented. Got input type=" + shortTypeStr(operand) +
                             " and output shape=" + intTupleRepr(outShape));
  }
  ExplicitType result = operand;
  result.type = in.op.result(0)->type();
  return typed({std::move(result)});
}

bool contains(const std::vector<int64_t>& values, int64_t v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// `_axis_types_dict(mesh)` printed: `{Explicit: ('X', 'Y'), Auto: ('Z',)}`, types in the order
// they first appear along the mesh's axes.
std::string axisTypesDictRepr(const RuleContext& context, std::string_view meshName) {
  const ir::Mesh* mesh = meshNamed(context, meshName);
  if (!mesh)
    return "{}";
  std::vector<std::pair<std::string_view, std::vector<std::string>>> groups;
  for (const ir::MeshAxis& axis : mesh->axes) {
    std::string_view type = axisTypeName(context.axisTypes.typeOf(meshName, axis.name));
    auto it =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == type; });
    if (it == groups.end())
      it = groups.insert(groups.end(), {type, {}});
    it->second.push_back(axis.name);
  }
  std::string out = "{";
  for (size_t g = 0; g < groups.size(); ++g) {
    out += (g ? ", " : "") + std::string(groups[g].first) + ": (";
    for (size_t i = 0; i < groups[g].second.size(); ++i)
      out += (i ? ", '" : "'") + groups[g].second[i] + "'";
    out += groups[g].second.size() == 1 ? ",)" : ")";
  }
  return out + "}";
}

} // namespace

RuleOutcome transposeRule(const RuleInput& in) {
  std::optional<std::vector<int64_t>> perm = intListAttr(in.op, "permutation");
  if (!perm || in.operands.empty() || perm->size() != in.operands[0].dims.size())
    return {};
  // Result dimension i is operand dimension perm[i].
  std::vector<DimSpec> dims;
  for (int64_t from : *perm) {
    if (from < 0 || static_cast<size_t>(from) >= in.operands[0].dims.size())
      return {};
    dims.push_back(in.operands[0].dims[static_cast<size_t>(from)]);
  }
  return typed({resultType(in, 0, std::move(dims))});
}

RuleOutcome broadcastInDimRule(const RuleInput& in) {
  if (std::optional<ExplicitType> out = outSharding(in, 0))
    return typed({*out});
  std::optional<std::vector<int64_t>> map = intListAttr(in.op, "broadcast_dimensions");
  ir::Type type = in.op.result(0)->type();
  if (!map || in.operands.empty() || !type.isTensor() || map->size() != in.operands[0].rank())
    return {};
  // Operand dimension i becomes result dimension map[i] with its sharding; new dimensions are
  // unsharded. JAX keeps the spec of an expanded size-1 dimension as it is.
  std::vector<DimSpec> dims(type.shape().size());
  for (size_t i = 0; i < map->size(); ++i) {
    int64_t to = (*map)[i];
    if (to < 0 || static_cast<size_t>(to) >= dims.size())
      return {};
    dims[static_cast<size_t>(to)] = in.operands[0].dims[i];
  }
  return typed({resultType(in, 0, std::move(dims))});
}

RuleOutcome concatenateRule(const RuleInput& in) {
  // All operands must have the same sharding (the concatenated dimension may be sharded).
  if (in.operands.empty())
    return {};
  const ExplicitType& first = in.operands[0];
  bool same = std::all_of(in.operands.begin(), in.operands.end(),
                          [&](const ExplicitType& t) { return t.sameSharding(first); });
  if (!same) {
    std::string shardings;
    for (size_t i = 0; i < in.operands.size(); ++i) {
      const ExplicitType& t = in.operands[i];
      shardings += (i ? ", " : "") +
                   namedShardingRepr(t, meshNamed(in.context, t.mesh), in.context.axisTypes);
    }
    return shardingTypeError("All operands should have the same sharding. Got shardings " +
                             shardings);
  }
  ExplicitType result = first;
  result.type = in.op.result(0)->type();
  return typed({std::move(result)});
}

RuleOutcome reduceRule(const RuleInput& in) {
  // `stablehlo.reduce(operands..., inits...)`: each result is its operand without the reduced
  // dimensions, which drop their sharding.
  std::optional<std::vector<int64_t>> reduced = intListAttr(in.op, "dimensions");
  size_t n = in.op.numResults();
  if (!reduced || in.operands.size() < n)
    return {};
  std::vector<ExplicitType> results;
  for (unsigned r = 0; r < n; ++r) {
    std::vector<DimSpec> dims;
    for (size_t d = 0; d < in.operands[r].dims.size(); ++d)
      if (!contains(*reduced, static_cast<int64_t>(d)))
        dims.push_back(in.operands[r].dims[d]);
    ExplicitType result = resultType(in, r, std::move(dims));
    if (result.type.isTensor() && result.type.shape().size() != result.dims.size())
      return {};
    results.push_back(std::move(result));
  }
  return typed(std::move(results));
}

RuleOutcome sliceRule(const RuleInput& in) { return varyingOutShape(in, "slicing"); }

RuleOutcome padRule(const RuleInput& in) { return varyingOutShape(in, "padding"); }

RuleOutcome dynamicSliceRule(const RuleInput& in) { return varyingOutShape(in, "dynamic_slice"); }

RuleOutcome dynamicUpdateSliceRule(const RuleInput& in) {
  // The update must be sharded exactly like the operand; the result keeps that sharding.
  if (in.operands.size() < 2)
    return {};
  const ExplicitType& operand = in.operands[0];
  const ExplicitType& update = in.operands[1];
  if (!operand.sameSharding(update) || operand.mesh != update.mesh) {
    auto withAxisTypes = [&](const ExplicitType& t) {
      return shortTypeStr(t) + "(" + axisTypesDictRepr(in.context, t.mesh) + ")";
    };
    return shardingTypeError("dynamic_update_slice operand sharding must be equal to update "
                             "sharding, got operand sharding " +
                             withAxisTypes(operand) + " and update sharding " +
                             withAxisTypes(update) + ".");
  }
  ExplicitType result = operand;
  result.type = in.op.result(0)->type();
  return typed({std::move(result)});
}

} // namespace shardscope::analysis::detail
