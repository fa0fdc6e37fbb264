// Ops that rearrange or replicate a whole tensor: `broadcast`, `broadcast_in_dim`, `reshape`,
// `transpose`, `iota`, `concatenate`, `reverse`, tuples and `get_dimension_size`
// (TypeInference.cpp: `inferBroadcastOp`, `verifyBroadcastInDimOp`, `verifyReshapeOp`,
// `inferTransposeOp`, `verifyIotaOp`, `inferConcatenateOp`, `verifyReverseOp`,
// `inferGetTupleElementOp`, `inferGetDimensionSizeOp`, `verifyDynamicReshapeOp`,
// `verifyDynamicIotaOp`, `verifyDynamicBroadcastInDimOp`, `inferOptimizationBarrierOp`; the ODS
// attribute constraints).

#include "core/verify/detail/op_context.h"
#include "core/verify/detail/quant_rules.h"

#include "core/ir/attribute.h"
#include "core/ir/quant_type.h"

#include <algorithm>
#include <numeric>
#include <unordered_set>

namespace shardscope::verify::detail {

namespace {

// ODS's message for a `ConfinedAttr<I64Attr, [IntNonNegative]>` that is negative.
bool checkNonNegativeAttr(const OpContext& ctx, std::string_view name, int64_t value,
                          std::string_view width = "64") {
  if (value >= 0)
    return true;
  return ctx.opError("attribute '" + std::string(name) + "' failed to satisfy constraint: " +
                     std::string(width) +
                     "-bit signless integer attribute whose value is non-negative");
}

bool hasDuplicates(std::span<const int64_t> values) {
  std::unordered_set<int64_t> seen;
  for (int64_t v : values)
    if (!seen.insert(v).second)
      return true;
  return false;
}

// The element type rule of `broadcast_in_dim_c1` and `dynamic_broadcast_in_dim_c1` (skipped for
// quantized types) and the checks both share: `c2` (one dimension per operand dimension), `c4`
// (unique) and `c5` (in range, sizes compatible; `staticSizes` for `broadcast_in_dim`, whose
// message names the result size).
bool checkBroadcastDims(const OpContext& ctx, std::span<const int64_t> dims,
                        std::span<const int64_t> operand, std::span<const int64_t> result,
                        bool staticSizes) {
  if (dims.size() != operand.size())
    return ctx.error("broadcast_dimensions size (" + std::to_string(dims.size()) +
                     ") does not match operand rank (" + std::to_string(operand.size()) + ")");
  if (!staticSizes && result.size() < operand.size())
    return ctx.error("result rank (" + std::to_string(result.size()) +
                     ") is less than operand rank (" + std::to_string(operand.size()) + ")");
  if (hasDuplicates(dims))
    return ctx.error("broadcast_dimensions should not have duplicates");
  int64_t rank = static_cast<int64_t>(result.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t dim = dims[i];
    if (dim < 0 || dim >= rank)
      return ctx.error("broadcast_dimensions contains invalid value " + std::to_string(dim) +
                       " for result with rank " + std::to_string(rank));
    int64_t size = operand[i], resultSize = result[dim];
    if (!isStaticDim(size) || size == 1)
      continue;
    if (staticSizes && size != resultSize)
      return ctx.error("size of operand dimension " + std::to_string(i) + " (" +
                       std::to_string(size) + ") is not equal to 1 or size of result dimension " +
                       std::to_string(dim) + " (" +
                       (isStaticDim(resultSize) ? std::to_string(resultSize) : "?") + ")");
    if (!staticSizes && !compatibleDims(size, resultSize))
      return ctx.error("size of operand dimension " + std::to_string(i) + " (" +
                       std::to_string(size) + ") is not compatible with size of result dimension " +
                       std::to_string(dim) + " (" + std::to_string(resultSize) + ")");
  }
  return true;
}

bool verifyBroadcastInDim(const OpContext& ctx) {
  if (ctx.op.numOperands() != 1 || ctx.op.numResults() != 1)
    return true;
  ir::Type operand = ctx.operandType(0), result = ctx.resultType(0);
  std::optional<std::vector<int64_t>> operandShape = shapeOf(operand),
                                      resultShape = shapeOf(result);
  if (!operandShape || !resultShape)
    return true;
  std::optional<std::vector<int64_t>> dims = ctx.intList("broadcast_dimensions");
  if (!dims)
    return ctx.missingAttr("broadcast_dimensions");
  if (allTensors(ctx.op) && !checkCompatibleElementTypes(ctx))
    return false;
  return checkSamePerTensorQuantization(ctx, operand, result) &&
         checkBroadcastDims(ctx, *dims, *operandShape, *resultShape, /*staticSizes=*/true) &&
         checkBroadcastQuantization(ctx, operand, result, *dims);
}

// `dynamic_broadcast_in_dim_c8`...`c10`: the expansion hints name distinct operand dimensions.
bool checkExpansionHints(const OpContext& ctx, int64_t operandRank) {
  std::vector<int64_t> hints = ctx.intListOrEmpty("known_expanding_dimensions");
  std::vector<int64_t> nonExpanding = ctx.intListOrEmpty("known_nonexpanding_dimensions");
  hints.insert(hints.end(), nonExpanding.begin(), nonExpanding.end());
  if (hasDuplicates(hints))
    return ctx.error("duplicate expansion hint for at least one operand dimension");
  for (int64_t hint : hints)
    if (hint < 0 || hint >= operandRank)
      return ctx.error("hint for expanding dimension " + std::to_string(hint) +
                       " does not refer to a valid operand dimension");
  return true;
}

// `verifyDynamicBroadcastInDimOp`.
bool verifyDynamicBroadcastInDim(const OpContext& ctx) {
  if (ctx.op.numOperands() != 2 || ctx.op.numResults() != 1)
    return true;
  ir::Type operand = ctx.operandType(0), result = ctx.resultType(0);
  std::optional<std::vector<int64_t>> operandShape = shapeOf(operand),
                                      resultShape = shapeOf(result);
  std::optional<std::vector<int64_t>> dims = ctx.intList("broadcast_dimensions");
  if (!operandShape || !resultShape || !dims)
    return true;
  if (isTensor(operand) && isTensor(result) && operand.elementType() != result.elementType())
    return ctx.error("expects operand and result to have compatible element type. Got: " +
                     quoted(operand) + " and " + quoted(result));
  if (!checkBroadcastDims(ctx, *dims, *operandShape, *resultShape, /*staticSizes=*/false))
    return false;
  std::optional<std::vector<int64_t>> shape = constantInts(ctx.op.operand(1));
  if (shape && !compatibleShapes(*shape, *resultShape))
    return ctx.error("output shape [" + joinInts(*shape) +
                     "] is incompatible with return type of operation " + quoted(result));
  if (!checkExpansionHints(ctx, static_cast<int64_t>(operandShape->size())))
    return false;
  bool operandStatic = std::ranges::all_of(*operandShape, isStaticDim);
  for (size_t i = 0; shape && operandStatic && i < dims->size(); ++i) {
    int64_t size = (*operandShape)[i], dim = (*dims)[i];
    int64_t value = (*shape)[static_cast<size_t>(dim)];
    if (size != 1 && size != value)
      return ctx.error("size of operand dimension " + std::to_string(i) + " (" +
                       std::to_string(size) + ") is not equal to 1 or value of shape at index " +
                       std::to_string(dim) + " (" + std::to_string(value) + ")");
  }
  return checkBroadcastQuantization(ctx, operand, result, *dims);
}

bool broadcastEntry(const OpContext& ctx) {
  if (!allTensors(ctx.op))
    return true;
  if (!ctx.intList("broadcast_sizes"))
    return ctx.missingAttr("broadcast_sizes");
  return checkSameElementTypes(ctx);
}

bool broadcastInfer(const OpContext& ctx) {
  std::optional<std::vector<int64_t>> sizes = ctx.intList("broadcast_sizes");
  if (!allTensors(ctx.op) || !sizes)
    return true;
  for (int64_t size : *sizes)
    if (size < 0)
      return ctx.error("Broadcast with negative dimension size " + std::to_string(size));
  std::vector<int64_t> shape = *sizes;
  ir::Type operand = ctx.operandType(0);
  shape.insert(shape.end(), operand.shape().begin(), operand.shape().end());
  return checkInferredTensor(ctx, shape, operand.elementType());
}

// The element count of a static shape; nothing for a dynamic one or one whose count overflows.
std::optional<int64_t> staticCount(std::span<const int64_t> shape) {
  int64_t count = 1;
  for (int64_t d : shape)
    if (!isStaticDim(d) || __builtin_mul_overflow(count, d, &count))
      return std::nullopt;
  return count;
}

// `reshape_c1` (and `dynamic_reshape_c2`): as many elements out as in.
bool checkReshapeCounts(const OpContext& ctx, std::span<const int64_t> operand,
                        std::span<const int64_t> result) {
  std::optional<int64_t> in = staticCount(operand), out = staticCount(result);
  if (!in || !out || *in == *out)
    return true;
  return ctx.error("number of output elements (" + std::to_string(*out) +
                   ") doesn't match expected number of elements (" + std::to_string(*in) + ")");
}

bool isQuantizedOp(const OpContext& ctx) {
  return anyQuantized(ir::operandTypes(ctx.op)) || anyQuantized(ir::resultTypes(ctx.op));
}

bool verifyReshape(const OpContext& ctx) {
  if (ctx.op.numOperands() != 1 || ctx.op.numResults() != 1)
    return true;
  ir::Type operand = ctx.operandType(0), result = ctx.resultType(0);
  if (isQuantizedOp(ctx)) {
    std::optional<std::vector<int64_t>> from = shapeOf(operand), to = shapeOf(result);
    return !from || !to ||
           (checkReshapeCounts(ctx, *from, *to) && checkReshapeQuantization(ctx, operand, result));
  }
  if (!allTensors(ctx.op))
    return true;
  return checkCompatibleElementTypes(ctx) &&
         checkReshapeCounts(ctx, operand.shape(), result.shape());
}

bool transposeEntry(const OpContext& ctx) {
  bool quantized = isQuantizedOp(ctx);
  if (!quantized && !allTensors(ctx.op))
    return true;
  std::optional<std::vector<int64_t>> permutation = ctx.intList("permutation");
  if (!permutation)
    return ctx.missingAttr("permutation");
  if (quantized)
    return ctx.op.numOperands() != 1 || ctx.op.numResults() != 1 ||
           checkTransposeQuantization(ctx, ctx.operandType(0), ctx.resultType(0), *permutation);
  return checkCompatibleElementTypes(ctx);
}

bool transposeInfer(const OpContext& ctx) {
  std::optional<std::vector<int64_t>> permutation = ctx.intList("permutation");
  if (!permutation || ctx.op.numOperands() != 1)
    return true;
  ir::Type operand = ctx.operandType(0);
  std::optional<ir::QuantType> quant = ir::quantTypeOf(operand);
  if (!quant && !allTensors(ctx.op))
    return true;
  std::vector<int64_t> operandShape = quant ? quant->shape : std::vector<int64_t>(
                                                                 operand.shape().begin(),
                                                                 operand.shape().end());
  int64_t rank = static_cast<int64_t>(operandShape.size());
  if (static_cast<int64_t>(permutation->size()) != rank)
    return ctx.error("TransposeOp operand rank " + std::to_string(rank) +
                     " does not match permutation size " + std::to_string(permutation->size()));
  std::vector<int64_t> range(static_cast<size_t>(rank));
  std::iota(range.begin(), range.end(), 0);
  if (!std::is_permutation(range.begin(), range.end(), permutation->begin()))
    return ctx.error("attribute permutation must be a permutation of [" + joinInts(range) +
                     "] but got " + joinInts(*permutation));
  std::vector<int64_t> shape;
  for (int64_t dim : *permutation)
    shape.push_back(operandShape[static_cast<size_t>(dim)]);
  if (quant) {
    quant->shape = shape;
    return checkInferredTypes(ctx, {quant->type()});
  }
  return checkInferredTensor(ctx, shape, operand.elementType());
}

bool verifyIota(const OpContext& ctx) {
  std::optional<int64_t> dim = ctx.intAttr("iota_dimension");
  if (!dim)
    return ctx.missingAttr("iota_dimension");
  if (!checkNonNegativeAttr(ctx, "iota_dimension", *dim))
    return false;
  if (ctx.op.numResults() != 1 || !isTensor(ctx.resultType(0)))
    return true;
  int64_t rank = ctx.resultType(0).rank();
  if (rank == 0)
    return ctx.error("does not support scalars.");
  if (*dim >= rank)
    return ctx.error("iota dimension cannot go beyond the output rank.");
  return true;
}

// A constant's type is its value's (ConstantOp::inferReturnTypes); a quantized result holds the
// value in its storage type (isCompatibleReturnTypes).
bool constantInfer(const OpContext& ctx) {
  ir::Attribute value = ctx.op.attr("value");
  ir::Type valueType;
  if (const auto* dense = value.as<ir::DenseElementsAttr>())
    valueType = dense->type;
  else if (const auto* resource = value.as<ir::DenseResourceAttr>())
    valueType = resource->type;
  if (!valueType || ctx.op.numResults() != 1)
    return true;
  ir::Type result = ctx.resultType(0);
  ir::Type comparable = result;
  if (std::optional<ir::QuantType> quant = ir::quantTypeOf(result))
    comparable = quant->storageType();
  if (comparable == valueType)
    return true;
  return ctx.opError("inferred type(s) " + quoted(valueType) +
                     " are incompatible with return type(s) of operation " + quoted(result));
}

bool concatenateEntry(const OpContext& ctx) {
  // SameOperandsAndResultElementType: at least one operand.
  if (ctx.op.numOperands() == 0)
    return ctx.opError("expected 1 or more operands, but found 0");
  std::optional<int64_t> dimension = ctx.intAttr("dimension");
  if (!dimension)
    return ctx.missingAttr("dimension");
  return checkNonNegativeAttr(ctx, "dimension", *dimension) &&
         (!allTensors(ctx.op) || checkSameElementTypes(ctx));
}

bool concatenateInfer(const OpContext& ctx) {
  std::optional<int64_t> dimension = ctx.intAttr("dimension");
  if (!allTensors(ctx.op) || ctx.op.numOperands() == 0 || !dimension)
    return true;
  ir::Type witness = ctx.operandType(0);
  int64_t rank = witness.rank();
  if (rank == 0)
    return ctx.error("rank-0 values cannot be concatenated");
  if (*dimension >= rank)
    return ctx.error("dimension " + std::to_string(*dimension) +
                     " is out-of-bounds for input rank " + std::to_string(rank));
  std::vector<int64_t> shape(static_cast<size_t>(rank), ir::kDynamicSize);
  shape[*dimension] = 0;
  for (unsigned i = 0; i < ctx.op.numOperands(); ++i) {
    ir::Type type = ctx.operandType(i);
    if (type.rank() != rank)
      return ctx.error("operands (0) and (" + std::to_string(i) + ") do not match rank");
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = type.shape()[d];
      if (d == *dimension) {
        shape[d] = isStaticDim(shape[d]) && isStaticDim(size) ? shape[d] + size
                                                               : ir::kDynamicSize;
        continue;
      }
      if (!compatibleDims(witness.shape()[d], size))
        return ctx.error("shapes of operand (0) and (" + std::to_string(i) +
                         ") are not compatible at non-concat index " + std::to_string(d) +
                         ": (" + joinInts(witness.shape()) + ") != (" + joinInts(type.shape()) +
                         ")");
      if (!isStaticDim(shape[d]))
        shape[d] = size;
    }
  }
  return checkInferredTensor(ctx, shape, witness.elementType());
}

bool reverseInfer(const OpContext& ctx) {
  return !allTensors(ctx.op) || checkInferredTypes(ctx, {ctx.operandType(0)});
}

bool reverseEntry(const OpContext& ctx) {
  if (!allTensors(ctx.op))
    return true;
  std::optional<std::vector<int64_t>> dims = ctx.intList("dimensions");
  if (!dims)
    return ctx.missingAttr("dimensions");
  if (!checkSameElementTypes(ctx))
    return false;
  if (hasDuplicates(*dims))
    return ctx.error("dimensions should be unique. Got: " + joinInts(*dims));
  int64_t rank = ctx.operandType(0).rank();
  for (int64_t dim : *dims) {
    if (dim < 0)
      return ctx.error("all dimensions should be non-negative. Got dimension: " +
                       std::to_string(dim) + ".");
    if (dim >= rank)
      return ctx.error("all dimensions should be between [0, " + std::to_string(rank) +
                       "). Got dimension: " + std::to_string(dim) + ".");
  }
  return true;
}

bool getTupleElementEntry(const OpContext& ctx) {
  std::optional<int64_t> index = ctx.intAttr("index");
  if (!index)
    return ctx.missingAttr("index");
  return checkNonNegativeAttr(ctx, "index", *index, "32");
}

bool getTupleElementInfer(const OpContext& ctx) {
  std::optional<int64_t> index = ctx.intAttr("index");
  if (!index || ctx.op.numOperands() != 1 || ctx.operandType(0).kind() != ir::Type::Kind::Tuple)
    return true;
  std::span<const ir::Type> elements = ctx.operandType(0).elements();
  if (*index >= static_cast<int64_t>(elements.size()))
    return ctx.error("index " + std::to_string(*index) + " is out of bounds of operand with size " +
                     std::to_string(elements.size()));
  return checkInferredTypes(ctx, {elements[*index]});
}

bool verifyTuple(const OpContext& ctx) {
  std::vector<ir::Type> elements;
  for (const ir::Value* v : ctx.op.operands())
    elements.push_back(v->type());
  return checkInferredTypes(ctx, {ir::Type::tuple(elements)});
}

bool getDimensionSizeEntry(const OpContext& ctx) {
  std::optional<int64_t> dim = ctx.intAttr("dimension");
  if (!dim)
    return ctx.missingAttr("dimension");
  return checkNonNegativeAttr(ctx, "dimension", *dim);
}

bool getDimensionSizeInfer(const OpContext& ctx) {
  std::optional<int64_t> dim = ctx.intAttr("dimension");
  if (!dim || ctx.op.numOperands() != 1 || !isTensor(ctx.operandType(0)))
    return true;
  int64_t rank = ctx.operandType(0).rank();
  if (*dim >= rank)
    return ctx.error("requires dimension attribute in range [0, " + std::to_string(rank) +
                     "); found (" + std::to_string(*dim) + ")");
  return checkInferredTensor(ctx, {}, ir::ElementType::I32);
}

// `verifyShapeOperandIsCompatibleWithResultType`.
bool checkShapeOperand(const OpContext& ctx, const ir::Value* shapeOperand, ir::Type result,
                       std::span<const int64_t> resultShape) {
  std::optional<std::vector<int64_t>> shape = constantInts(shapeOperand);
  if (!shape || compatibleShapes(*shape, resultShape))
    return true;
  return ctx.error("output shape [" + joinInts(*shape) +
                   "] is incompatible with return type of operation " + quoted(result));
}

bool checkShapeOperand(const OpContext& ctx, const ir::Value* shapeOperand, ir::Type result) {
  return checkShapeOperand(ctx, shapeOperand, result, result.shape());
}

// Plain or quantized data, as StableHLO's `dynamic_reshape` takes either.
bool verifyDynamicReshape(const OpContext& ctx) {
  if (ctx.op.numOperands() != 2 || ctx.op.numResults() != 1 || !isTensor(ctx.operandType(1)))
    return true;
  ir::Type operand = ctx.operandType(0), result = ctx.resultType(0);
  bool quantized = isQuantized(operand) || isQuantized(result);
  std::optional<std::vector<int64_t>> from = shapeOf(operand), to = shapeOf(result);
  if (!from || !to)
    return true;
  if (!quantized && operand.elementType() != result.elementType())
    return ctx.error("expects operand and result to have compatible element type. Got: " +
                     quoted(operand) + " and " + quoted(result));
  if (!checkReshapeCounts(ctx, *from, *to) ||
      !checkShapeOperand(ctx, ctx.op.operand(1), result, *to))
    return false;
  ir::Type shapeType = ctx.operandType(1);
  if (shapeType.rank() == 1 && isStaticDim(shapeType.shape()[0]) &&
      shapeType.shape()[0] != static_cast<int64_t>(to->size()))
    return ctx.error("result should have a rank equal to the number of elements in output_shape");
  std::optional<std::vector<int64_t>> shape = constantInts(ctx.op.operand(1));
  std::optional<int64_t> operandCount = staticCount(*from);
  if (shape && operandCount) {
    __int128 count = 1;
    for (int64_t d : *shape)
      count *= d;
    if (count != *operandCount)
      return ctx.error("output_shape is incompatible with input type of operation: input has " +
                       std::to_string(*operandCount) + " elements, but output_shape has " +
                       std::to_string(static_cast<int64_t>(count)));
  }
  return !quantized || checkReshapeQuantization(ctx, operand, result);
}

bool verifyDynamicIota(const OpContext& ctx) {
  std::optional<int64_t> dim = ctx.intAttr("iota_dimension");
  if (!dim)
    return ctx.missingAttr("iota_dimension");
  if (!checkNonNegativeAttr(ctx, "iota_dimension", *dim))
    return false;
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 1 || ctx.op.numResults() != 1)
    return true;
  if (*dim >= ctx.resultType(0).rank())
    return ctx.error("iota dimension cannot go beyond the output rank.");
  return checkShapeOperand(ctx, ctx.op.operand(0), ctx.resultType(0));
}

// `HLO_PairwiseSameOperandAndResultType`.
bool optimizationBarrierEntry(const OpContext& ctx) {
  if (ctx.op.numOperands() != ctx.op.numResults())
    return ctx.opError("requires the same number of operands and results");
  for (unsigned i = 0; i < ctx.op.numOperands(); ++i)
    if (ctx.operandType(i) != ctx.resultType(i))
      return ctx.opError("requires the same type for operand and result at index " +
                         std::to_string(i));
  return true;
}

bool optimizationBarrierInfer(const OpContext& ctx) {
  std::vector<ir::Type> operands;
  for (const ir::Value* v : ctx.op.operands())
    operands.push_back(v->type());
  return checkInferredTypes(ctx, operands);
}

} // namespace

void addShapeRules(RuleTable& table) {
  table.emplace("stablehlo.broadcast_in_dim", OpRules{&verifyBroadcastInDim, nullptr});
  table.emplace("stablehlo.dynamic_broadcast_in_dim",
                OpRules{&verifyDynamicBroadcastInDim, nullptr});
  table.emplace("stablehlo.broadcast", OpRules{&broadcastEntry, &broadcastInfer});
  table.emplace("stablehlo.reshape", OpRules{&verifyReshape, nullptr});
  table.emplace("stablehlo.transpose", OpRules{&transposeEntry, &transposeInfer});
  table.emplace("stablehlo.iota", OpRules{&verifyIota, nullptr});
  table.emplace("stablehlo.concatenate", OpRules{&concatenateEntry, &concatenateInfer});
  table.emplace("stablehlo.constant", OpRules{nullptr, &constantInfer});
  table.emplace("stablehlo.reverse", OpRules{&reverseEntry, &reverseInfer});
  table.emplace("stablehlo.get_tuple_element", OpRules{&getTupleElementEntry, &getTupleElementInfer});
  table.emplace("stablehlo.tuple", OpRules{nullptr, &verifyTuple});
  table.emplace("stablehlo.get_dimension_size", OpRules{&getDimensionSizeEntry, &getDimensionSizeInfer});
  table.emplace("stablehlo.dynamic_reshape", OpRules{&verifyDynamicReshape, nullptr});
  table.emplace("stablehlo.dynamic_iota", OpRules{&verifyDynamicIota, nullptr});
  table.emplace("stablehlo.optimization_barrier",
                OpRules{&optimizationBarrierEntry, &optimizationBarrierInfer});
}

} // namespace shardscope::verify::detail
