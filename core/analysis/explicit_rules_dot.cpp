// The explicit-sharding rule of dot_general (and dot), after `_dot_general_sharding_rule`,
// `_dot_general_sharding_computation` and `_dot_general_unreduced_rule` in jax/_src/lax/lax.py.
//
// Batch dimensions must agree; free dimensions keep their sharding (batch, then lhs free, then
// rhs free, as in the StableHLO result). A contracting dimension sharded on one side only is
// gathered (its sharding is dropped); sharded on both sides the result would be a partial sum on
// every device, which JAX refuses to guess: the user must give `out_sharding` (possibly with
// unreduced axes, keeping the partial sums for a later reduction).
#include "core/analysis/detail/explicit_rule_support.h"

#include "core/ir/attribute.h"

#include <algorithm>
#include <charconv>

namespace shardscope::analysis::detail {

namespace {

struct DotDims {
  std::vector<int64_t> lhsBatch, rhsBatch, lhsContracting, rhsContracting;
};

// Reads `key = [1, 2]` from the text of `#stablehlo.dot<...>`; an absent key is an empty list.
std::optional<std::vector<int64_t>> dotField(std::string_view text, std::string_view key) {
  size_t at = text.find(std::string(key) + " = [");
  if (at == std::string_view::npos)
    return std::vector<int64_t>();
  size_t open = text.find('[', at), close = text.find(']', at);
  if (close == std::string_view::npos)
    return std::nullopt;
  std::vector<int64_t> values;
  std::string_view list = text.substr(open + 1, close - open - 1);
  while (!list.empty()) {
    while (!list.empty() && (list.front() == ' ' || list.front() == ','))
      list.remove_prefix(1);
    if (list.empty())
      break;
    int64_t v = 0;
    auto r = std::from_chars(list.data(), list.data() + list.size(), v);
    if (r.ec != std::errc())
      return std::nullopt;
    values.push_back(v);
    list.remove_prefix(static_cast<size_t>(r.ptr - list.data()));
  }
  return values;
}

std::optional<DotDims> dotDims(const RuleInput& in) {
  if (in.op.is("stablehlo.dot")) {
    // `dot` contracts the last lhs dimension with the first rhs dimension.
    int64_t lhsRank = static_cast<int64_t>(in.operands[0].rank());
    return DotDims{{}, {}, {lhsRank - 1}, {0}};
  }
  const auto* attr = in.op.attr("dot_dimension_numbers").as<ir::OpaqueAttr>();
  if (!attr)
    return std::nullopt;
  auto lb = dotField(attr->text, "lhs_batching_dimensions");
  auto rb = dotField(attr->text, "rhs_batching_dimensions");
  auto lc = dotField(attr->text, "lhs_contracting_dimensions");
  auto rc = dotField(attr->text, "rhs_contracting_dimensions");
  if (!lb || !rb || !lc || !rc || lb->size() != rb->size() || lc->size() != rc->size())
    return std::nullopt;
  return DotDims{*lb, *rb, *lc, *rc};
}

bool inRange(const std::vector<int64_t>& dims, size_t rank) {
  return std::all_of(dims.begin(), dims.end(),
                     [&](int64_t d) { return d >= 0 && static_cast<size_t>(d) < rank; });
}

std::vector<DimSpec> specsAt(const ExplicitType& t, const std::vector<int64_t>& dims) {
  std::vector<DimSpec> specs;
  for (int64_t d : dims)
    specs.push_back(t.dims[static_cast<size_t>(d)]);
  return specs;
}

// `_dot_general_sharding_computation`: batch (lhs spec), lhs free, rhs free dimensions.
std::vector<DimSpec> resultSpecs(const ExplicitType& lhs, const ExplicitType& rhs,
                                 const DotDims& dims) {
  std::vector<DimSpec> out = specsAt(lhs, dims.lhsBatch);
  auto appendFree = [&](const ExplicitType& t, const std::vector<int64_t>& batch,
                        const std::vector<int64_t>& contracting) {
    for (size_t d = 0; d < t.dims.size(); ++d) {
      auto isIn = [&](const std::vector<int64_t>& v) {
        return std::find(v.begin(), v.end(), static_cast<int64_t>(d)) != v.end();
      };
      if (!isIn(batch) && !isIn(contracting))
        out.push_back(t.dims[d]);
    }
  };
  appendFree(lhs, dims.lhsBatch, dims.lhsContracting);
  appendFree(rhs, dims.rhsBatch, dims.rhsContracting);
  return out;
}

// `_dot_general_sharding_rule` without an `out_sharding`.
RuleOutcome inferredSharding(const RuleInput& in, const DotDims& dims) {
  const ExplicitType& lhs = in.operands[0];
  const ExplicitType& rhs = in.operands[1];
  std::vector<DimSpec> lhsBatch = specsAt(lhs, dims.lhsBatch);
  std::vector<DimSpec> rhsBatch = specsAt(rhs, dims.rhsBatch);
  // Batch dimensions must be sharded alike, one unsharded side included (JAX compares the
  // specs); contracting dimensions may be sharded on one side, not on both.
  if (lhsBatch != rhsBatch)
    return shardingTypeError("dot_general requires lhs batch dimensions and rhs batch dimensions "
                             "to have the same sharding, got " +
                             specTupleRepr(lhsBatch) + " and " + specTupleRepr(rhsBatch) + ".");
  std::vector<DimSpec> lhsContracting = specsAt(lhs, dims.lhsContracting);
  std::vector<DimSpec> rhsContracting = specsAt(rhs, dims.rhsContracting);
  for (size_t i = 0; i < lhsContracting.size(); ++i)
    if (!lhsContracting[i].empty() && !rhsContracting[i].empty())
      return shardingTypeError(
          "Contracting dimensions are sharded and it is ambiguous how the output should be "
          "sharded. Please specify the output sharding via the `out_sharding` parameter. Got "
          "lhs_contracting_spec=" +
          specTupleRepr(lhsContracting) +
          " and rhs_contracting_spec=" + specTupleRepr(rhsContracting));
  return typed({resultType(in, 0, resultSpecs(lhs, rhs, dims))});
}

// `_dot_general_unreduced_rule`: inputs cannot be unreduced; an `out_sharding` that is unreduced
// must be unreduced over exactly the axes both contracting dimensions are sharded on.
std::optional<RuleOutcome> checkUnreduced(const RuleInput& in, const DotDims& dims,
                                          const std::optional<ExplicitType>& out) {
  const ExplicitType& lhs = in.operands[0];
  const ExplicitType& rhs = in.operands[1];
  if (!lhs.unreduced.empty() || !rhs.unreduced.empty())
    return shardingTypeError("lhs or rhs passed to dot_general cannot be unreduced. Got lhs=" +
                             avalRepr(lhs) + " and rhs=" + avalRepr(rhs));
  if (!out || out->unreduced.empty())
    return std::nullopt;
  std::vector<DimSpec> lc = specsAt(lhs, dims.lhsContracting);
  std::vector<DimSpec> rc = specsAt(rhs, dims.rhsContracting);
  if (lc != rc)
    return shardingTypeError("lhs and rhs contracting dims should be sharded identically when "
                             "out_sharding provided to dot_general mentions unreduced_axes. Got "
                             "lhs_contracting_spec=" +
                             specTupleRepr(lc) + ", rhs_contracting_spec=" + specTupleRepr(rc));
  std::vector<ir::AxisRef> flat;
  for (const DimSpec& s : lc)
    flat.insert(flat.end(), s.begin(), s.end());
  auto sameSet = [](std::vector<ir::AxisRef> a, std::vector<ir::AxisRef> b) {
    auto less = [](const ir::AxisRef& x, const ir::AxisRef& y) { return x.name < y.name; };
    std::sort(a.begin(), a.end(), less);
    std::sort(b.begin(), b.end(), less);
    return a == b;
  };
  if (!sameSet(flat, out->unreduced))
    return shardingTypeError("out_sharding's unreduced axes should be equal to the contracting "
                             "specs. Got unreduced axes=" +
                             frozensetRepr(out->unreduced) +
                             " and contracting spec=" + specTupleRepr(lc));
  return std::nullopt;
}

} // namespace

RuleOutcome dotGeneralRule(const RuleInput& in) {
  if (in.operands.size() != 2 || in.op.numResults() != 1)
    return {};
  std::optional<DotDims> dims = dotDims(in);
  if (!dims)
    return {};
  size_t lhsRank = in.operands[0].rank(), rhsRank = in.operands[1].rank();
  if (!inRange(dims->lhsBatch, lhsRank) || !inRange(dims->lhsContracting, lhsRank) ||
      !inRange(dims->rhsBatch, rhsRank) || !inRange(dims->rhsContracting, rhsRank))
    return {};
  // JAX returns an `out_sharding` as it is, before looking at the operands.
  std::optional<ExplicitType> out = outSharding(in, 0);
  RuleOutcome outcome = out ? typed({*out}) : inferredSharding(in, *dims);
  if (outcome.status != RuleOutcome::Status::Typed)
    return outcome;
  if (std::optional<RuleOutcome> error = checkUnreduced(in, *dims, out))
    return *error;
  return outcome;
}

} // namespace shardscope::analysis::detail
