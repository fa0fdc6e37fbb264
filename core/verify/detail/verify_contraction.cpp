// Contractions: `dot` and `dot_general` (TypeInference.cpp: `verifyPrecisionConfig`,
// `inferDotOp`/`verifyDotOp`, `checkDotGeneralConstraints`, `inferDotGeneralOp`/
// `verifyDotGeneralOp`).

#include "core/verify/detail/op_context.h"
#include "core/verify/detail/quant_rules.h"

#include "core/ir/attribute.h"
#include "core/ir/stablehlo_attrs.h"

#include <algorithm>
#include <unordered_set>

namespace shardscope::verify::detail {

namespace {

bool checkPrecisionConfig(const OpContext& ctx) {
  ir::Attribute attr = ctx.op.attr("precision_config");
  const auto* config = attr.as<ir::ArrayAttr>();
  // ODS's HLO_PrecisionConfigAttr: an array of `#stablehlo<precision ...>` (`#chlo<...>` for
  // chlo.ragged_dot).
  bool precisions = !attr || config;
  for (size_t i = 0; config && i < config->elements.size(); ++i)
    precisions = precisions && (config->elements[i].str().starts_with("#stablehlo<precision ") ||
                                config->elements[i].str().starts_with("#chlo<precision "));
  if (!precisions)
    return ctx.opError("attribute 'precision_config' failed to satisfy constraint: Precision "
                       "Config attribute");
  if (!config || config->elements.size() <= 2)
    return true;
  return ctx.error("expects precision config to be empty or have <= 2 elements, got " +
                   std::to_string(config->elements.size()));
}

bool checkInferredShape(const OpContext& ctx, std::span<const int64_t> inferred,
                        std::span<const int64_t> resultShape) {
  ir::Type result = ctx.resultType(0);
  if (compatibleShapes(inferred, resultShape))
    return true;
  return ctx.error("inferred shape '" + dimsString(inferred) +
                   "' is incompatible with return type of operation " + quoted(result));
}

bool verifyDot(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 2)
    return true;
  if (!checkPrecisionConfig(ctx))
    return false;
  std::span<const int64_t> lhs = ctx.operandType(0).shape(), rhs = ctx.operandType(1).shape();
  std::vector<int64_t> dims;
  if (lhs.size() == 1 && rhs.size() == 1 && compatibleDims(lhs[0], rhs[0])) {
  } else if (lhs.size() == 2 && rhs.size() == 1 && compatibleDims(lhs[1], rhs[0])) {
    dims = {lhs[0]};
  } else if (lhs.size() == 1 && rhs.size() == 2 && compatibleDims(lhs[0], rhs[0])) {
    dims = {rhs[1]};
  } else if (lhs.size() == 2 && rhs.size() == 2 && compatibleDims(lhs[1], rhs[0])) {
    dims = {lhs[0], rhs[1]};
  } else {
    return ctx.error("expected both lhs/rhs ranks to be either 1 or 2");
  }
  return checkInferredShape(ctx, dims, ctx.resultType(0).shape());
}

bool checkInRange(const OpContext& ctx, int64_t rank, std::span<const int64_t> dims,
                  std::string_view name) {
  for (int64_t dim : dims)
    if (dim < 0 || dim >= rank)
      return ctx.error(std::string(name) + " value: " + std::to_string(dim) +
                       " is out of range: [0, " + std::to_string(rank) + ")");
  return true;
}

bool contains(std::span<const int64_t> dims, int64_t dim) {
  return std::find(dims.begin(), dims.end(), dim) != dims.end();
}

// Quantized operands and results are checked on their shapes, then with the quantization rules.
bool verifyDotGeneral(const OpContext& ctx) {
  if (ctx.op.numOperands() != 2 || ctx.op.numResults() != 1)
    return true;
  std::optional<std::vector<int64_t>> lhsShape = shapeOf(ctx.operandType(0));
  std::optional<std::vector<int64_t>> rhsShape = shapeOf(ctx.operandType(1));
  std::optional<std::vector<int64_t>> resultShape = shapeOf(ctx.resultType(0));
  if (!lhsShape || !rhsShape || !resultShape)
    return true;
  std::optional<ir::stablehlo::DotDimensionNumbers> dn = ir::stablehlo::dotDimensionNumbers(ctx.op);
  if (!dn)
    return ctx.missingAttr("dot_dimension_numbers");
  if (!checkDotGeneralConstraints(ctx, *lhsShape, *rhsShape, *dn))
    return false;
  std::span<const int64_t> lhs = *lhsShape, rhs = *rhsShape;
  int64_t lhsRank = static_cast<int64_t>(lhs.size()), rhsRank = static_cast<int64_t>(rhs.size());
  std::vector<int64_t> dims;
  for (size_t i = 0; i < dn->lhsBatching.size(); ++i) {
    int64_t l = lhs[dn->lhsBatching[i]], r = rhs[dn->rhsBatching[i]];
    dims.push_back(isStaticDim(l) ? l : r);
  }
  for (int64_t i = 0; i < lhsRank; ++i)
    if (!contains(dn->lhsBatching, i) && !contains(dn->lhsContracting, i))
      dims.push_back(lhs[i]);
  for (int64_t i = 0; i < rhsRank; ++i)
    if (!contains(dn->rhsBatching, i) && !contains(dn->rhsContracting, i))
      dims.push_back(rhs[i]);
  if (!checkInferredShape(ctx, dims, *resultShape))
    return false;
  // dot_general_c21: an algorithm fixes the precision, so the config must leave it at DEFAULT.
  if (ctx.op.hasAttr("algorithm")) {
    bool defaultPrecision = true;
    if (const auto* config = ctx.op.attr("precision_config").as<ir::ArrayAttr>())
      for (const ir::Attribute& precision : config->elements)
        defaultPrecision = defaultPrecision && precision.str() == "#stablehlo<precision DEFAULT>";
    if (!defaultPrecision)
      return ctx.error("must specify DEFAULT precision config when algorithm is set.");
  }
  ir::Type types[] = {ctx.operandType(0), ctx.operandType(1), ctx.resultType(0)};
  return !anyQuantized(types) ||
         checkDotGeneralQuantization(ctx, types[0], types[1], types[2], dn->rhsContracting);
}

} // namespace

bool checkDotGeneralConstraints(const OpContext& ctx, std::span<const int64_t> lhs,
                                std::span<const int64_t> rhs,
                                const ir::stablehlo::DotDimensionNumbers& dn) {
  if (!checkPrecisionConfig(ctx))
    return false;
  if (dn.lhsBatching.size() != dn.rhsBatching.size())
    return ctx.error("lhs and rhs should have the same number of batching dimensions");
  if (dn.lhsContracting.size() != dn.rhsContracting.size())
    return ctx.error("lhs and rhs should have the same number of contracting dimensions");
  if (!checkDimsDistinct(ctx, dn.lhsBatching, dn.lhsContracting, "lhs_batching_dimensions",
                         "lhs_contracting_dimensions") ||
      !checkDimsDistinct(ctx, dn.rhsBatching, dn.rhsContracting, "rhs_batching_dimensions",
                         "rhs_contracting_dimensions"))
    return false;
  int64_t lhsRank = static_cast<int64_t>(lhs.size()), rhsRank = static_cast<int64_t>(rhs.size());
  if (!checkInRange(ctx, lhsRank, dn.lhsBatching, "lhs_batching_dimensions") ||
      !checkInRange(ctx, lhsRank, dn.lhsContracting, "lhs_contracting_dimensions") ||
      !checkInRange(ctx, rhsRank, dn.rhsBatching, "rhs_batching_dimensions") ||
      !checkInRange(ctx, rhsRank, dn.rhsContracting, "rhs_contracting_dimensions"))
    return false;
  for (size_t i = 0; i < dn.lhsBatching.size(); ++i)
    if (!compatibleDims(lhs[dn.lhsBatching[i]], rhs[dn.rhsBatching[i]]))
      return ctx.error("batching dimension sizes must match for lhs/rhs");
  for (size_t i = 0; i < dn.lhsContracting.size(); ++i)
    if (!compatibleDims(lhs[dn.lhsContracting[i]], rhs[dn.rhsContracting[i]]))
      return ctx.error("contracting dimension sizes must match for lhs/rhs");
  return true;
}

bool checkDimsDistinct(const OpContext& ctx, std::span<const int64_t> a,
                       std::span<const int64_t> b, std::string_view aName,
                       std::string_view bName) {
  std::unordered_set<int64_t> seen;
  for (auto list : {a, b})
    for (int64_t dim : list)
      if (!seen.insert(dim).second)
        return ctx.error("has duplicated dimension from " + std::string(aName) + " and " +
                         std::string(bName) + ": " + std::to_string(dim));
  return true;
}

void addContractionRules(RuleTable& table) {
  table.emplace("stablehlo.dot", OpRules{&verifyDot, nullptr});
  table.emplace("stablehlo.dot_general", OpRules{&verifyDotGeneral, nullptr});
}

} // namespace shardscope::verify::detail
