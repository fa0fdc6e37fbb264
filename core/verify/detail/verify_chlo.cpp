// The CHLO ops ShardScope lowers to StableHLO (`chlo-legalize-to-stablehlo`): `mulhi`,
// `ragged_dot` and `scan`, with the ODS constraints of ChloOps.td and the `verify()` and
// `inferReturnTypeComponents` of ChloOps.cpp (`checkRaggedDotConstraints`,
// `inferRaggedDotOutputDimensions`, `ScanOp::verify`, `ScanOp::inferReturnTypeComponents`).

#include "core/verify/detail/op_context.h"

#include "core/ir/attribute.h"
#include "core/ir/stablehlo_attrs.h"

#include <algorithm>

namespace shardscope::verify::detail {

namespace {

bool contains(std::span<const int64_t> dims, int64_t dim) {
  return std::find(dims.begin(), dims.end(), dim) != dims.end();
}

// `HLO_Int`: signless and unsigned integers of 2 to 64 bits (not `i1`, not `index`).
bool isHloInt(ir::ElementType e) {
  return e != ir::ElementType::I1 && e != ir::ElementType::Index && ir::isIntegerElement(e);
}

// ODS's `HLO_IntTensor` on one operand or result (`what` is "operand #0", "result #0").
bool checkIntTensor(const OpContext& ctx, ir::Type type, const std::string& what) {
  if (!isTensor(type) || isHloInt(type.elementType()))
    return true;
  return ctx.opError(what +
                     " must be ranked tensor of 2/4/8/16/32/64-bit integer values, but got " +
                     quoted(type));
}

// `HLO_IntTensor:$lhs, HLO_IntTensor:$rhs -> HLO_IntTensor`, `HLO_CompatibleOperandsAndResultType`.
bool verifyMulhi(const OpContext& ctx) {
  for (unsigned i = 0; i < ctx.op.numOperands(); ++i)
    if (!checkIntTensor(ctx, ctx.operandType(i), "operand #" + std::to_string(i)))
      return false;
  for (unsigned i = 0; i < ctx.op.numResults(); ++i)
    if (!checkIntTensor(ctx, ctx.resultType(i), "result #" + std::to_string(i)))
      return false;
  return checkCompatibleTypes(ctx);
}

// ---- ragged_dot ------------------------------------------------------------------------------

enum class RaggedMode { NonContracting, Contracting, Batch };

// `hlo::checkDimInBounds`.
bool checkDimInBounds(const OpContext& ctx, int64_t dim, int64_t bound, std::string_view name,
                      std::string_view boundName) {
  if (dim >= 0 && dim < bound)
    return true;
  return ctx.error("Expects " + std::string(name) + " to be in range [0, " +
                   std::string(boundName) + ") i.e. [0, " + std::to_string(bound) +
                   "). got: " + std::to_string(dim) + ".");
}

// `2, 3`: the shape text of the group_sizes message.
std::string shapeList(std::span<const int64_t> shape) {
  std::string out;
  for (size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + std::to_string(shape[i]);
  return out;
}

// The lhs sizes group_sizes is indexed by before its group dimension: the lhs batching dims
// before the ragged one (all of them unless the ragged dim is one), then the contracting dims
// before it (mode 2) or the non-contracting dims before it (mode 1).
std::vector<int64_t> groupSizesPrefix(std::span<const int64_t> lhs,
                                      const ir::stablehlo::RaggedDotDimensionNumbers& dn,
                                      RaggedMode mode) {
  const ir::stablehlo::DotDimensionNumbers& d = dn.dot;
  int64_t ragged = dn.lhsRagged[0];
  std::vector<int64_t> dims(d.lhsBatching.begin(), d.lhsBatching.end());
  if (mode == RaggedMode::Batch) {
    dims.resize(std::find(d.lhsBatching.begin(), d.lhsBatching.end(), ragged) -
                d.lhsBatching.begin());
  } else if (mode == RaggedMode::Contracting) {
    dims.insert(dims.end(), d.lhsContracting.begin(),
                std::find(d.lhsContracting.begin(), d.lhsContracting.end(), ragged));
  } else {
    for (int64_t i = 0; i < ragged; ++i)
      if (!contains(d.lhsBatching, i) && !contains(d.lhsContracting, i))
        dims.push_back(i);
  }
  std::vector<int64_t> sizes;
  for (int64_t dim : dims)
    sizes.push_back(lhs[dim]);
  return sizes;
}

bool checkGroupSizesShape(const OpContext& ctx, std::span<const int64_t> lhs,
                          std::span<const int64_t> groupSizes,
                          const ir::stablehlo::RaggedDotDimensionNumbers& dn, RaggedMode mode) {
  // A `[g]` group_sizes is broadcast over the prefix.
  if (groupSizes.size() == 1)
    return true;
  std::vector<int64_t> prefix = groupSizesPrefix(lhs, dn, mode);
  if (groupSizes.size() != prefix.size() + 1)
    return ctx.error("expected group_sizes to have rank " + std::to_string(prefix.size() + 1) +
                     ", got " + std::to_string(groupSizes.size()));
  if (std::equal(prefix.begin(), prefix.end(), groupSizes.begin()))
    return true;
  return ctx.error("group_sizes is expected to have shape [" + shapeList(prefix) + ", " +
                   std::to_string(groupSizes.back()) + "], got [" + shapeList(groupSizes) + "]");
}

bool checkRhsGroupDims(const OpContext& ctx, std::span<const int64_t> rhs, int64_t numGroups,
                       const ir::stablehlo::RaggedDotDimensionNumbers& dn, RaggedMode mode) {
  for (int64_t dim : dn.rhsGroup)
    if (!checkDimInBounds(ctx, dim, static_cast<int64_t>(rhs.size()), "rhs_group_dim", "rhs_rank"))
      return false;
  if (!checkDimsDistinct(ctx, dn.rhsGroup, dn.dot.rhsBatching, "rhs_group_dimensions",
                         "rhs_batching_dimensions") ||
      !checkDimsDistinct(ctx, dn.rhsGroup, dn.dot.rhsContracting, "rhs_group_dimensions",
                         "rhs_contracting_dimensions"))
    return false;
  if (mode != RaggedMode::NonContracting) {
    if (dn.rhsGroup.empty())
      return true;
    return ctx.error("There must be zero group dimensions in the rhs when the ragged dimension "
                     "is batch or contracting.");
  }
  if (dn.rhsGroup.size() != 1)
    return ctx.error("There must be exactly one group dimension in the rhs when the lhs ragged "
                     "dimension is non-contracting.");
  int64_t groupSize = rhs[dn.rhsGroup[0]];
  if (compatibleDims(numGroups, groupSize))
    return true;
  return ctx.error("rhs group dimension is expected to have size=" + std::to_string(numGroups) +
                   ", got " + std::to_string(groupSize));
}

// `inferRaggedDotOutputDimensions`: [g (mode 2)], lhs batch, lhs free, rhs free dims.
std::vector<int64_t> raggedDotResultShape(std::span<const int64_t> lhs,
                                          std::span<const int64_t> rhs, int64_t numGroups,
                                          const ir::stablehlo::RaggedDotDimensionNumbers& dn) {
  const ir::stablehlo::DotDimensionNumbers& d = dn.dot;
  std::vector<int64_t> dims;
  if (contains(d.lhsContracting, dn.lhsRagged[0]))
    dims.push_back(numGroups);
  for (int64_t dim : d.lhsBatching)
    dims.push_back(lhs[dim]);
  for (int64_t i = 0; i < static_cast<int64_t>(lhs.size()); ++i)
    if (!contains(d.lhsBatching, i) && !contains(d.lhsContracting, i))
      dims.push_back(lhs[i]);
  for (int64_t i = 0; i < static_cast<int64_t>(rhs.size()); ++i)
    if (!contains(d.rhsBatching, i) && !contains(d.rhsContracting, i) && !contains(dn.rhsGroup, i))
      dims.push_back(rhs[i]);
  return dims;
}

bool verifyRaggedDot(const OpContext& ctx) {
  if (ctx.op.numOperands() != 3 || ctx.op.numResults() != 1)
    return true;
  if (!checkIntTensor(ctx, ctx.operandType(2), "operand #2"))
    return false;
  std::optional<ir::stablehlo::RaggedDotDimensionNumbers> dn =
      ir::stablehlo::raggedDotDimensionNumbers(ctx.op);
  if (!dn)
    return ctx.missingAttr("ragged_dot_dimension_numbers");
  if (!allTensors(ctx.op))
    return true;
  std::span<const int64_t> lhs = ctx.operandType(0).shape(), rhs = ctx.operandType(1).shape();
  std::span<const int64_t> groupSizes = ctx.operandType(2).shape();
  if (!checkDotGeneralConstraints(ctx, lhs, rhs, dn->dot))
    return false;
  if (dn->lhsRagged.size() != 1)
    return ctx.error("There must be exactly one ragged dimension in the lhs.");
  int64_t ragged = dn->lhsRagged[0];
  if (!checkDimInBounds(ctx, ragged, static_cast<int64_t>(lhs.size()), "lhs_ragged_dim",
                        "lhs_rank"))
    return false;
  RaggedMode mode = contains(dn->dot.lhsBatching, ragged)      ? RaggedMode::Batch
                    : contains(dn->dot.lhsContracting, ragged) ? RaggedMode::Contracting
                                                               : RaggedMode::NonContracting;
  if (groupSizes.empty())
    return true; // a rank-0 group_sizes: StableHLO reads past its shape; nothing to compare
  if (!checkGroupSizesShape(ctx, lhs, groupSizes, *dn, mode) ||
      !checkRhsGroupDims(ctx, rhs, groupSizes.back(), *dn, mode))
    return false;
  std::vector<int64_t> inferred = raggedDotResultShape(lhs, rhs, groupSizes.back(), *dn);
  ir::Type result = ctx.resultType(0);
  if (compatibleShapes(inferred, result.shape()))
    return true;
  return ctx.error("inferred shape '" + dimsString(inferred) +
                   "' is incompatible with return type of operation " + quoted(result));
}

// ---- scan ------------------------------------------------------------------------------------

// The two counts of an `operandSegmentSizes`/`resultSegmentSizes` attribute.
std::optional<std::pair<int64_t, int64_t>> segments(const OpContext& ctx, std::string_view name) {
  const auto* array = ctx.op.attr(name).as<ir::DenseArrayAttr>();
  if (!array || array->ints.size() != 2)
    return std::nullopt;
  return std::pair{array->ints[0], array->ints[1]};
}

bool checkNonNegative(const OpContext& ctx, std::string_view name) {
  std::optional<int64_t> value = ctx.intAttr(name);
  if (!value || *value >= 0)
    return true;
  return ctx.opError("attribute '" + std::string(name) +
                     "' failed to satisfy constraint: 64-bit signless integer attribute whose "
                     "value is non-negative");
}

// The ODS part: attributes, segment sizes, one body block.
bool checkScanStructure(const OpContext& ctx) {
  if (!ctx.intAttr("dimension"))
    return ctx.missingAttr("dimension");
  if (!checkNonNegative(ctx, "dimension") || !checkNonNegative(ctx, "scan_dim_size"))
    return false;
  std::optional<std::pair<int64_t, int64_t>> operands = segments(ctx, "operandSegmentSizes");
  std::optional<std::pair<int64_t, int64_t>> results = segments(ctx, "resultSegmentSizes");
  if (!operands)
    return ctx.missingAttr("operandSegmentSizes");
  if (!results)
    return ctx.missingAttr("resultSegmentSizes");
  if (operands->first + operands->second != ctx.op.numOperands())
    return ctx.opError("operand count (" + std::to_string(ctx.op.numOperands()) +
                       ") does not match with the total size (" +
                       std::to_string(operands->first + operands->second) +
                       ") specified in attribute 'operandSegmentSizes'");
  if (results->first + results->second != ctx.op.numResults())
    return ctx.opError("result count (" + std::to_string(ctx.op.numResults()) +
                       ") does not match with the total size (" +
                       std::to_string(results->first + results->second) +
                       ") specified in attribute 'resultSegmentSizes'");
  if (ctx.op.numRegions() != 1 || ctx.op.region(0).blocks().size() != 1)
    return ctx.opError("region #0 ('body') failed to verify constraint: region with 1 blocks");
  return true;
}

// `ScanOp::verify`.
bool verifyScan(const OpContext& ctx) {
  if (!checkScanStructure(ctx))
    return false;
  auto numInputs = static_cast<unsigned>(segments(ctx, "operandSegmentSizes")->first);
  auto numOutputs = segments(ctx, "resultSegmentSizes")->first;
  if (numInputs == 0 && numOutputs == 0)
    return ctx.opError("at least one of inputs or outputs must be present");
  if (!allTensors(ctx.op))
    return true;
  int64_t dim = *ctx.intAttr("dimension");
  std::optional<int64_t> dimSize = ctx.intAttr("scan_dim_size");
  for (unsigned i = 0; i < numInputs; ++i) {
    ir::Type input = ctx.operandType(i);
    if (dim >= input.rank())
      return ctx.opError("scan dimension of operand " + std::to_string(i) + " is out of bounds");
    int64_t size = input.shape()[dim];
    if (!isStaticDim(size))
      continue;
    if (dimSize && *dimSize != size)
      return ctx.opError("invalid scan dimension size of operand " + std::to_string(i));
    dimSize = size;
  }
  const ir::Block& body = ctx.op.region(0).front();
  if (body.numArguments() != ctx.op.numOperands())
    return ctx.opError("expects " + std::to_string(ctx.op.numOperands()) +
                       " arguments in the body, but got " + std::to_string(body.numArguments()));
  for (unsigned i = 0; i < ctx.op.numOperands(); ++i) {
    ir::Type type = ctx.operandType(i);
    if (i < numInputs) {
      std::vector<int64_t> shape(type.shape().begin(), type.shape().end());
      shape.erase(shape.begin() + dim);
      type = ir::Type::tensor(shape, type.elementType());
    }
    if (!compatibleTypes(type, body.argument(i)->type()))
      return ctx.opError("operand and body argument " + std::to_string(i) + " are incompatible");
  }
  return true;
}

// `ScanOp::inferReturnTypeComponents`, compared with the results by shape only
// (`isCompatibleReturnTypes` is `verifyCompatibleShapes`).
bool inferScan(const OpContext& ctx) {
  if (!segments(ctx, "operandSegmentSizes") || !allTensors(ctx.op) || ctx.op.numRegions() != 1)
    return true;
  const ir::Block& body = ctx.op.region(0).front();
  const ir::Operation* terminator = body.back();
  auto numInputs = static_cast<unsigned>(segments(ctx, "operandSegmentSizes")->first);
  size_t numCarries = ctx.op.numOperands() - numInputs;
  if (!terminator || terminator->numOperands() < numCarries)
    return ctx.error("ScanOp body must return at least " + std::to_string(numCarries) +
                     " values (carries)");
  size_t numOutputs = terminator->numOperands() - numCarries;
  int64_t dim = *ctx.intAttr("dimension");
  int64_t dimSize = ctx.intAttr("scan_dim_size").value_or(ir::kDynamicSize);
  for (unsigned i = 0; i < numInputs; ++i) {
    ir::Type input = ctx.operandType(i);
    if (dim >= input.rank())
      return ctx.error("scan dimension of operand " + std::to_string(i) + " is out of bounds");
    if (!isStaticDim(dimSize))
      dimSize = input.shape()[dim];
  }
  std::vector<ir::Type> inferred;
  bool compatible = terminator->numOperands() == ctx.op.numResults();
  for (unsigned i = 0; i < terminator->numOperands(); ++i) {
    ir::Type type = terminator->operand(i)->type();
    if (!isTensor(type))
      return true;
    std::vector<int64_t> shape(type.shape().begin(), type.shape().end());
    if (i < numOutputs)
      shape.insert(shape.begin() + std::min<int64_t>(dim, type.rank()), dimSize);
    inferred.push_back(ir::Type::tensor(shape, type.elementType()));
    compatible = compatible && i < ctx.op.numResults() && isTensor(ctx.resultType(i)) &&
                 compatibleShapes(shape, ctx.resultType(i).shape());
  }
  if (compatible)
    return true;
  return ctx.opError("inferred type(s) " + quotedList(inferred) +
                     " are incompatible with return type(s) of operation " +
                     quotedList(ir::resultTypes(ctx.op)));
}

} // namespace

void addChloRules(RuleTable& table) {
  table.emplace("chlo.mulhi", OpRules{&verifyMulhi, nullptr});
  table.emplace("chlo.ragged_dot", OpRules{&verifyRaggedDot, nullptr});
  table.emplace("chlo.scan", OpRules{&verifyScan, &inferScan});
}

} // namespace shardscope::verify::detail
