// The explicit-sharding rule of reshape, after `_reshape_sharding_rule` in jax/_src/lax/lax.py.
//
// Reshape is the op the usual per-dimension consensus does not fit: an output dimension may be
// several input dimensions merged, or part of one split. JAX strips singleton dimensions (they
// cannot be sharded anyway) and then accepts:
// - a reshape that only adds or removes singleton dimensions;
// - a split of one dimension into adjacent ones: its axes are handed out to the pieces major
//   first, each piece taking axes while its size divides by them (`split_partitions`);
// - a merge of adjacent dimensions into one: their axes, major first, on the merged dimension,
//   unless an unsharded dimension comes before a sharded one.
// Everything else needs the output sharding given explicitly (`out_sharding`).
#include "core/analysis/detail/explicit_rule_support.h"

#include <algorithm>
#include <numeric>
#include <variant>

namespace shardscope::analysis::detail {

namespace {

using Shape = std::vector<int64_t>;
// One entry per dimension of the shorter shape: a size kept as it is, or the group of sizes of
// the longer shape it splits into.
using Piece = std::variant<int64_t, Shape>;

// The answer of `_split_on_one_axis`: not a split, a split, or JAX's `ReshapeExplicitError`
// (more than one dimension splits).
enum class Split { No, Yes, TooMany };

int64_t product(const Shape& s) {
  return std::accumulate(s.begin(), s.end(), int64_t{1}, std::multiplies<>());
}

// Grows `group` (starting at newSizes[j]) until it covers opShape[i]; mirrors the inner loop of
// `_split_on_one_axis`. Returns false when no group fits.
bool growGroup(const Shape& opShape, const Shape& newSizes, size_t i, size_t& j, Shape& group) {
  size_t nextJ = j + 1, nextI = i + 1;
  while (product(group) != opShape[i] || (nextJ < newSizes.size() && newSizes[nextJ] == 1)) {
    if (product(group) > opShape[i])
      return false;
    if (product(group) == opShape[i] && nextI < opShape.size() && nextJ < newSizes.size() &&
        newSizes[nextJ] == opShape[nextI])
      break;
    if (++j >= newSizes.size())
      return false;
    group.push_back(newSizes[j]);
    ++nextJ;
  }
  return true;
}

// `_split_on_one_axis(op_shape, new_sizes)`: whether `newSizes` splits exactly one dimension of
// `opShape` into adjacent ones; on success `out` maps each `opShape` dimension to its piece.
Split splitOnOneAxis(Shape opShape, Shape newSizes, std::vector<Piece>& out) {
  if (newSizes.size() <= opShape.size())
    return Split::No;
  size_t trailingOnes = 0;
  while (!opShape.empty() && !newSizes.empty() && opShape.back() == 1 && newSizes.back() == 1) {
    ++trailingOnes;
    opShape.pop_back();
    newSizes.pop_back();
  }
  int splits = 0;
  size_t i = 0;
  for (size_t j = 0; j < newSizes.size(); ++i, ++j) {
    if (i >= opShape.size())
      return Split::No; // JAX would fail with an IndexError here; treat as "not a split"
    if (opShape[i] == newSizes[j]) {
      out.emplace_back(opShape[i]);
      continue;
    }
    if (++splits > 1)
      return Split::TooMany;
    Shape group{newSizes[j]};
    if (!growGroup(opShape, newSizes, i, j, group))
      return Split::No;
    out.emplace_back(std::move(group));
  }
  out.insert(out.end(), trailingOnes, Piece(int64_t{1}));
  return out.size() == opShape.size() + trailingOnes ? Split::Yes : Split::No;
}

std::string unsupported(const ExplicitType& operand, const Shape& newSizes) {
  return "This reshape is not supported. Please specify the sharding of the output via the "
         "`out_sharding` argument of jax.lax.reshape. Got operand type: " +
         longTypeStr(operand) + ", new sizes: " + intTupleRepr(newSizes);
}

// `_split_merge_singleton_dim_sharding_rule`: only singleton dimensions come and go.
std::vector<DimSpec> singletonRule(const ExplicitType& operand, const Shape& opShape,
                                   const Shape& newSizes) {
  std::vector<DimSpec> kept;
  for (size_t d = 0; d < opShape.size(); ++d)
    if (opShape[d] != 1)
      kept.push_back(operand.dims[d]);
  std::vector<DimSpec> dims;
  size_t next = 0;
  for (int64_t size : newSizes)
    dims.push_back(size == 1 ? DimSpec() : kept[next++]);
  return dims;
}

// `split_partitions`: hands the axes `axes` (major first) out to the dimensions `sizes`, each
// taking axes while what is left of its size is above 1 and divisible by the next axis. Nothing
// when a size is not divisible or axes are left over.
std::optional<std::vector<DimSpec>> splitPartitions(const RuleInput& in, const DimSpec& axes,
                                                    const Shape& sizes) {
  const std::string& mesh = in.operands[0].mesh;
  std::vector<DimSpec> out;
  size_t next = 0;
  for (int64_t size : sizes) {
    DimSpec dim;
    while (size > 1 && next < axes.size()) {
      int64_t axisSize = specSize(in.context, mesh, DimSpec{axes[next]});
      if (axisSize <= 0 || size % axisSize != 0)
        return std::nullopt;
      size /= axisSize;
      dim.push_back(axes[next++]);
    }
    out.push_back(std::move(dim));
  }
  if (next != axes.size())
    return std::nullopt;
  return out;
}

// `_split_an_axis_sharding_rule`: a split dimension's axes go to its pieces, major first.
std::optional<std::vector<DimSpec>> splitRule(const RuleInput& in,
                                              const std::vector<Piece>& split) {
  const ExplicitType& operand = in.operands[0];
  std::vector<DimSpec> dims;
  for (size_t d = 0; d < split.size(); ++d) {
    const DimSpec& spec = operand.dims[d];
    const auto* group = std::get_if<Shape>(&split[d]);
    if (!group) {
      dims.push_back(spec);
      continue;
    }
    std::optional<std::vector<DimSpec>> pieces = splitPartitions(in, spec, *group);
    if (!pieces)
      return std::nullopt;
    dims.insert(dims.end(), pieces->begin(), pieces->end());
  }
  return dims;
}

// `_merge_an_axis_sharding_rule`: `merge` maps each result dimension to the operand sizes it
// merges; the merged dimension takes their axes, major first, unless an unsharded dimension
// comes before a sharded one.
std::optional<std::vector<DimSpec>> mergeRule(const RuleInput& in,
                                              const std::vector<Piece>& merge) {
  const ExplicitType& operand = in.operands[0];
  std::vector<DimSpec> dims;
  size_t next = 0;
  for (const Piece& piece : merge) {
    const auto* group = std::get_if<Shape>(&piece);
    if (!group) {
      dims.push_back(operand.dims[next++]);
      continue;
    }
    // flatten_spec then strip_trailing_nones: an empty dimension before a sharded one is refused.
    DimSpec axes;
    bool gap = false;
    for (size_t k = 0; k < group->size(); ++k) {
      const DimSpec& spec = operand.dims[next + k];
      if (spec.empty() && (*group)[k] != 1) {
        gap = true;
        continue;
      }
      if (!spec.empty() && gap)
        return std::nullopt;
      axes.insert(axes.end(), spec.begin(), spec.end());
    }
    next += group->size();
    std::optional<std::vector<DimSpec>> merged = splitPartitions(in, axes, {product(*group)});
    if (!merged)
      return std::nullopt;
    dims.push_back(std::move(merged->front()));
  }
  return dims;
}

// The split rule, else the merge rule (a merge is a split read backwards); nothing when the
// reshape is neither or the sharding does not allow it.
std::optional<std::vector<DimSpec>> splitOrMerge(const RuleInput& in, const Shape& opShape,
                                                 const Shape& newSizes) {
  std::vector<Piece> split;
  Split isSplit = splitOnOneAxis(opShape, newSizes, split);
  if (isSplit != Split::No)
    return isSplit == Split::Yes ? splitRule(in, split) : std::nullopt;
  std::vector<Piece> merge;
  if (newSizes.size() < opShape.size() && splitOnOneAxis(newSizes, opShape, merge) == Split::Yes)
    return mergeRule(in, merge);
  return std::nullopt;
}

} // namespace

RuleOutcome reshapeRule(const RuleInput& in) {
  if (std::optional<ExplicitType> out = outSharding(in, 0))
    return typed({*out});
  ir::Type type = in.op.result(0)->type();
  if (in.operands.empty() || !type.isTensor() || !in.operands[0].type.isTensor())
    return {};
  const ExplicitType& operand = in.operands[0];
  Shape opShape(operand.type.shape().begin(), operand.type.shape().end());
  Shape newSizes(type.shape().begin(), type.shape().end());
  if (std::all_of(operand.dims.begin(), operand.dims.end(),
                  [](const DimSpec& d) { return d.empty(); }))
    return typed({resultType(in, 0, std::vector<DimSpec>(newSizes.size()))});
  Shape opNon1, newNon1;
  std::copy_if(opShape.begin(), opShape.end(), std::back_inserter(opNon1),
               [](int64_t s) { return s != 1; });
  std::copy_if(newSizes.begin(), newSizes.end(), std::back_inserter(newNon1),
               [](int64_t s) { return s != 1; });
  if (opNon1 == newNon1)
    return typed({resultType(in, 0, singletonRule(operand, opShape, newSizes))});
  if (std::optional<std::vector<DimSpec>> dims = splitOrMerge(in, opShape, newSizes))
    return typed({resultType(in, 0, std::move(*dims))});
  return shardingTypeError(unsupported(operand, newSizes));
}

} // namespace shardscope::analysis::detail
