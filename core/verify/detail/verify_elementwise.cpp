// Elementwise ops: the unary and binary maps, `compare`, `select`, `clamp`, the element type
// conversions and `reduce_precision` (ODS traits of `StablehloOps.td` and TypeInference.cpp's
// `infer*Op` for `abs`, `is_finite`, `real`, `imag`, `complex`, `select`, `clamp`,
// `verifyBitcastConvertOp`).

#include "core/verify/detail/op_context.h"
#include "core/verify/detail/quant_rules.h"

#include <vector>

namespace shardscope::verify::detail {

namespace {

// Ops whose operands and result all share one type (`HLO_CompatibleOperandsAndResultType`).
constexpr std::string_view kSameTypeOps[] = {
    "stablehlo.cbrt", "stablehlo.ceil", "stablehlo.cosine", "stablehlo.exponential",
    "stablehlo.exponential_minus_one", "stablehlo.floor", "stablehlo.log",
    "stablehlo.log_plus_one", "stablehlo.logistic", "stablehlo.negate", "stablehlo.not",
    "stablehlo.popcnt", "stablehlo.round_nearest_afz", "stablehlo.round_nearest_even",
    "stablehlo.rsqrt", "stablehlo.sign", "stablehlo.sine", "stablehlo.sqrt", "stablehlo.tan",
    "stablehlo.tanh", "stablehlo.count_leading_zeros", "stablehlo.divide", "stablehlo.maximum",
    "stablehlo.minimum", "stablehlo.multiply", "stablehlo.power", "stablehlo.remainder",
    "stablehlo.shift_left", "stablehlo.shift_right_arithmetic", "stablehlo.shift_right_logical",
    "stablehlo.subtract", "stablehlo.atan2", "stablehlo.and", "stablehlo.or", "stablehlo.xor",
};

// `HLO_CompatibleOperandsAndResultType`, then the base class's `Elementwise` and
// `SameOperandsAndResultShape`.
bool sameTypeEntry(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() == 0)
    return true;
  return checkCompatibleTypes(ctx) && checkElementwise(ctx) && checkSameShapes(ctx);
}

// The trait's `InferTypeOpInterface`: the most specific operand type is the result type.
bool sameTypeInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() == 0)
    return true;
  std::optional<ir::Type> inferred = inferMostSpecificType(ctx, ir::operandTypes(ctx.op));
  return inferred && checkInferredTypes(ctx, {*inferred});
}

// The shape trait on quantized operands and results (read through their quantized types; one
// that cannot be read is not judged).
bool checkSameQuantizedShapes(const OpContext& ctx, std::span<const ir::Type> types) {
  std::optional<std::vector<int64_t>> first = shapeOf(types.front());
  for (ir::Type t : types) {
    std::optional<std::vector<int64_t>> shape = shapeOf(t);
    if (!first || !shape)
      return true;
    if (!compatibleShapes(*shape, *first))
      return ctx.opError("requires the same shape for all operands and results");
  }
  return true;
}

// `AddOp`: the base class's shape traits, then `verifyAddOp`'s element type message, or its
// quantization rules when a type is quantized.
bool addEntry(const OpContext& ctx) {
  if (ctx.op.numOperands() != 2 || ctx.op.numResults() != 1)
    return true;
  ir::Type types[] = {ctx.operandType(0), ctx.operandType(1), ctx.resultType(0)};
  if (anyQuantized(types))
    return checkSameQuantizedShapes(ctx, types) &&
           checkBinaryQuantization(ctx, types[0], types[1], types[2]);
  if (!allTensors(ctx.op))
    return true;
  if (!checkSameShapes(ctx) || !checkElementwise(ctx))
    return false;
  ir::ElementType e = ctx.operandType(0).elementType();
  if (ctx.operandType(1).elementType() != e || ctx.resultType(0).elementType() != e)
    return ctx.error("op requires the same element type for all operands and results");
  return true;
}

// The real type of a complex element (`createRealType`); other elements stay.
ir::ElementType realPart(ir::ElementType e) {
  if (e == ir::ElementType::Complex64)
    return ir::ElementType::F32;
  if (e == ir::ElementType::Complex128)
    return ir::ElementType::F64;
  return e;
}

// Unary ops that declare their own inference: `Elementwise`, then `SameOperandsAndResultShape`.
bool unaryEntry(const OpContext& ctx) {
  if (!allTensors(ctx.op))
    return true;
  return checkElementwise(ctx) && checkSameShapes(ctx);
}

bool toRealInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 1)
    return true;
  ir::Type in = ctx.operandType(0);
  return checkInferredTensor(ctx, in.shape(), realPart(in.elementType()));
}

bool isFiniteInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 1)
    return true;
  return checkInferredTensor(ctx, ctx.operandType(0).shape(), ir::ElementType::I1);
}

bool complexEntry(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 2)
    return true;
  if (ctx.operandType(0).elementType() != ctx.operandType(1).elementType())
    return ctx.opError("requires the same element type for all operands");
  return checkSameShapes(ctx) && checkElementwise(ctx);
}

bool complexInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 2)
    return true;
  ir::ElementType e = ctx.operandType(0).elementType();
  if (e != ir::ElementType::F32 && e != ir::ElementType::F64)
    return true;
  ir::ElementType c = e == ir::ElementType::F64 ? ir::ElementType::Complex128
                                                : ir::ElementType::Complex64;
  return checkInferredTensor(ctx, ctx.operandType(0).shape(), c);
}

bool convertEntry(const OpContext& ctx) {
  return !allTensors(ctx.op) || (checkSameShapes(ctx) && checkElementwise(ctx));
}

bool compareEntry(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 2)
    return true;
  if (!checkElementwise(ctx))
    return false;
  if (ctx.operandType(0).elementType() != ctx.operandType(1).elementType())
    return ctx.opError("requires compatible element types for all operands");
  return checkSameShapes(ctx);
}

bool compareInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 2)
    return true;
  return checkInferredTensor(ctx, ctx.operandType(0).shape(), ir::ElementType::I1);
}

// The most specific of two compatible shapes: a static size wins over a dynamic one.
std::vector<int64_t> mostSpecific(std::span<const int64_t> a, std::span<const int64_t> b) {
  std::vector<int64_t> out(a.begin(), a.end());
  for (size_t i = 0; i < out.size() && i < b.size(); ++i)
    if (!isStaticDim(out[i]))
      out[i] = b[i];
  return out;
}

bool selectInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 3)
    return true;
  ir::Type pred = ctx.operandType(0), onTrue = ctx.operandType(1), onFalse = ctx.operandType(2);
  if (!compatibleTypes(onTrue, onFalse))
    return ctx.error("requires compatible types for non-predicate operands");
  if (pred.rank() != 0 && !compatibleShapes(pred.shape(), onTrue.shape()))
    return ctx.error("requires the same shape for all operands");
  return checkInferredTensor(ctx, mostSpecific(onTrue.shape(), onFalse.shape()),
                             onTrue.elementType());
}

bool clampEntry(const OpContext& ctx) {
  return !allTensors(ctx.op) || checkCompatibleElementTypes(ctx);
}

bool clampInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 3)
    return true;
  ir::Type min = ctx.operandType(0), operand = ctx.operandType(1), max = ctx.operandType(2);
  std::string operandShape = "[" + joinInts(operand.shape()) + "]";
  if (!compatibleShapes(min.shape(), operand.shape()) && min.rank() != 0)
    return ctx.error("min shape [" + joinInts(min.shape()) +
                     "] is not scalar and is not compatible to operand shape " + operandShape);
  if (!compatibleShapes(max.shape(), operand.shape()) && max.rank() != 0)
    return ctx.error("max shape [" + joinInts(max.shape()) +
                     "] is not scalar and is not compatible to operand shape " + operandShape);
  return checkInferredTypes(ctx, {operand});
}

// ODS: `ConfinedAttr<I32Attr, [IntPositive]>:$exponent_bits` and `[IntNonNegative]` mantissa,
// then `HLO_CompatibleOperandsAndResultType`.
bool reducePrecisionEntry(const OpContext& ctx) {
  std::optional<int64_t> exponent = ctx.intAttr("exponent_bits");
  std::optional<int64_t> mantissa = ctx.intAttr("mantissa_bits");
  if (!exponent)
    return ctx.missingAttr("exponent_bits");
  if (!mantissa)
    return ctx.missingAttr("mantissa_bits");
  if (*exponent <= 0)
    return ctx.opError("attribute 'exponent_bits' failed to satisfy constraint: 32-bit signless "
                       "integer attribute whose value is positive");
  if (*mantissa < 0)
    return ctx.opError("attribute 'mantissa_bits' failed to satisfy constraint: 32-bit signless "
                       "integer attribute whose value is non-negative");
  return sameTypeEntry(ctx);
}

// A quantized operand or result counts as its storage type (`getBitWidth` of the element).
bool verifyBitcastConvert(const OpContext& ctx) {
  if (ctx.op.numOperands() != 1 || ctx.op.numResults() != 1)
    return true;
  ir::Type operand = ctx.operandType(0), target = ctx.resultType(0);
  std::optional<ir::ElementType> fromElement = elementOrStorageOf(operand),
                                 toElement = elementOrStorageOf(target);
  std::optional<std::vector<int64_t>> fromShape = shapeOf(operand), toShape = shapeOf(target);
  if (!fromElement || !toElement || !fromShape || !toShape)
    return true;
  ir::ElementType from = *fromElement, to = *toElement;
  std::string types = operand.str() + "' and '" + target.str();
  if (ir::isComplexElement(from) != ir::isComplexElement(to))
    return ctx.error("cannot convert between real and complex types, but got: '" + types + "'");
  int64_t fromBits = ir::elementBitWidth(from), toBits = ir::elementBitWidth(to);
  std::span<const int64_t> smaller = fromBits < toBits ? *fromShape : *toShape;
  std::span<const int64_t> bigger = fromBits < toBits ? *toShape : *fromShape;
  std::span<const int64_t> prefix = smaller;
  if (fromBits != toBits) {
    int64_t small = std::min(fromBits, toBits), big = std::max(fromBits, toBits);
    if (smaller.size() != bigger.size() + 1)
      return ctx.error("rank of smaller element type (" + std::to_string(smaller.size()) +
                       ") should be 1 more than rank of larger element type (" +
                       std::to_string(bigger.size()) + "), but " +
                       std::to_string(smaller.size()) + " != " + std::to_string(bigger.size()) +
                       " + 1.");
    prefix = smaller.first(smaller.size() - 1);
    if (isStaticDim(smaller.back()) && smaller.back() * small != big)
      return ctx.error("requires compatible bit widths. Got: '" + types + "', but " +
                       std::to_string(small) + " * " + std::to_string(smaller.back()) +
                       " != " + std::to_string(big) + ".");
  }
  for (size_t i = 0; i < prefix.size() && i < bigger.size(); ++i)
    if (!compatibleDims(prefix[i], bigger[i]))
      return ctx.error("operand and result shapes must match except for the innermost "
                       "dimension of the shape with the smaller element type. Got: '" +
                       types + "'.");
  return true;
}

} // namespace

void addElementwiseRules(RuleTable& table) {
  for (std::string_view name : kSameTypeOps)
    table.emplace(name, OpRules{&sameTypeEntry, &sameTypeInfer});
  table.emplace("stablehlo.add", OpRules{&addEntry, &sameTypeInfer});
  table.emplace("stablehlo.abs", OpRules{&unaryEntry, &toRealInfer});
  table.emplace("stablehlo.real", OpRules{&unaryEntry, &toRealInfer});
  table.emplace("stablehlo.imag", OpRules{&unaryEntry, &toRealInfer});
  table.emplace("stablehlo.is_finite", OpRules{&unaryEntry, &isFiniteInfer});
  table.emplace("stablehlo.complex", OpRules{&complexEntry, &complexInfer});
  table.emplace("stablehlo.convert", OpRules{&convertEntry, nullptr});
  table.emplace("stablehlo.compare", OpRules{&compareEntry, &compareInfer});
  table.emplace("stablehlo.select", OpRules{nullptr, &selectInfer});
  table.emplace("stablehlo.clamp", OpRules{&clampEntry, &clampInfer});
  table.emplace("stablehlo.reduce_precision", OpRules{&reducePrecisionEntry, &sameTypeInfer});
  table.emplace("stablehlo.bitcast_convert", OpRules{&verifyBitcastConvert, nullptr});
}

} // namespace shardscope::verify::detail
