// Linear algebra and normalisation: `batch_norm_grad`, `batch_norm_inference`,
// `batch_norm_training`, `cholesky`, `triangular_solve`, and `rng_bit_generator`'s state
// (TypeInference.cpp: `verifyBatchNorm`, `inferBatchNormOp`, `inferCholeskyOp`,
// `inferTriangularSolveOp`, `verifyRngBitGeneratorOp`, `inferFftOp`; the ODS attribute
// constraints).

#include "core/verify/detail/op_context.h"

#include "core/ir/stablehlo_attrs.h"

namespace shardscope::verify::detail {

namespace {

std::string sizeString(int64_t size) { return isStaticDim(size) ? std::to_string(size) : "?"; }

bool pairwiseCompatible(std::span<const ir::Type> types) {
  for (const ir::Type& a : types)
    for (const ir::Type& b : types)
      if (!compatibleShapes(a.shape(), b.shape()))
        return false;
  return true;
}

// ODS: `ConfinedAttr<I64Attr, [IntNonNegative]>:$feature_index`, then
// `HLO_CompatibleOperandsAndResultElementType`.
bool batchNormEntry(const OpContext& ctx) {
  std::optional<int64_t> feature = ctx.intAttr("feature_index");
  if (!feature)
    return ctx.missingAttr("feature_index");
  if (*feature < 0)
    return ctx.opError("attribute 'feature_index' failed to satisfy constraint: 64-bit signless "
                       "integer attribute whose value is non-negative");
  return !allTensors(ctx.op) || checkCompatibleElementTypes(ctx);
}

// `inferBatchNormOp` over the operands at `multi` (full shape) and `single` (one per feature).
bool batchNormInfer(const OpContext& ctx, std::vector<unsigned> multi, std::vector<unsigned> single,
                    bool inference) {
  std::optional<int64_t> feature = ctx.intAttr("feature_index");
  unsigned needed = static_cast<unsigned>(multi.size() + single.size());
  if (!allTensors(ctx.op) || !feature || ctx.op.numOperands() != needed)
    return true;
  std::vector<ir::Type> multiTypes, singleTypes;
  for (unsigned i : multi)
    multiTypes.push_back(ctx.operandType(i));
  for (unsigned i : single)
    singleTypes.push_back(ctx.operandType(i));
  if (!pairwiseCompatible(multiTypes))
    return ctx.error("expects multi-dimensional operands to have compatible shapes.");
  if (!pairwiseCompatible(singleTypes))
    return ctx.error("expects single-dimensional operands to have compatible shapes.");
  ir::Type operand = multiTypes.front();
  if (*feature >= operand.rank())
    return ctx.error("expects featureIndex to be smaller than the rank of multi-dimensional "
                     "operands; got featureIndex " +
                     std::to_string(*feature) + ", and rank " + std::to_string(operand.rank()) +
                     ".");
  int64_t featureCount = operand.shape()[*feature];
  int64_t singleSize = singleTypes.front().rank() > 0 ? singleTypes.front().shape()[0]
                                                      : ir::kDynamicSize;
  if (!compatibleDims(singleSize, featureCount))
    return ctx.error("expects the size of single-dimensional operands to be compatible with "
                     "feature count, but the size of single-dimensional operands is " +
                     sizeString(singleSize) + " and the feature count is " +
                     sizeString(featureCount) + ".");
  std::vector<ir::Type> inferred{ir::Type::tensor(operand.shape(), operand.elementType())};
  if (!inference) {
    int64_t featureShape[] = {featureCount};
    ir::Type perFeature = ir::Type::tensor(featureShape, operand.elementType());
    inferred.push_back(perFeature);
    inferred.push_back(perFeature);
  }
  return checkInferredTypes(ctx, inferred);
}

bool batchNormGradInfer(const OpContext& ctx) {
  return batchNormInfer(ctx, {0, 4}, {1, 2, 3}, /*inference=*/false);
}
bool batchNormInferenceInfer(const OpContext& ctx) {
  return batchNormInfer(ctx, {0}, {1, 2, 3, 4}, /*inference=*/true);
}
bool batchNormTrainingInfer(const OpContext& ctx) {
  return batchNormInfer(ctx, {0}, {1, 2}, /*inference=*/false);
}

bool compatibleElementsEntry(const OpContext& ctx) {
  return !allTensors(ctx.op) || checkCompatibleElementTypes(ctx);
}

bool choleskyInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 1)
    return true;
  ir::Type a = ctx.operandType(0);
  std::span<const int64_t> shape = a.shape();
  if (shape.size() < 2)
    return ctx.error("argument 'a' must have rank >= 2, got shape " + joinInts(shape) + ".");
  if (!compatibleDims(shape[shape.size() - 2], shape[shape.size() - 1]))
    return ctx.error("minor dimensions of 'a' must have equal size, got shape " +
                     joinInts(shape) + ".");
  return checkInferredTypes(ctx, {a});
}

bool triangularSolveInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 2)
    return true;
  ir::Type a = ctx.operandType(0), b = ctx.operandType(1);
  int64_t rank = a.rank();
  if (rank < 2)
    return ctx.error("operand 'a' must have rank >= 2, but got " + quoted(a));
  if (!compatibleDims(a.shape()[rank - 2], a.shape()[rank - 1]))
    return ctx.error("two minor dimensions of operand 'a' must be compatible, but got " +
                     quoted(a));
  if (b.rank() != rank)
    return ctx.error("operands must have equal rank, but got " + quoted(a) + " and " + quoted(b));
  bool leftSide = ctx.op.hasAttr("left_side") &&
                  ir::stablehlo::boolAttr(ctx.op, "left_side").value_or(false);
  if (!compatibleDims(a.shape()[rank - 1], b.shape()[rank - (leftSide ? 2 : 1)]))
    return ctx.error("shared dimension of operands 'a' and 'b' must be compatible, but got " +
                     quoted(a) + " and " + quoted(b));
  if (!compatibleShapes(a.shape().first(rank - 2), b.shape().first(rank - 2)))
    return ctx.error("batch dimensions of the operands must be compatible, but got " + quoted(a) +
                     " and " + quoted(b));
  if (ir::stablehlo::enumCase(ctx.op, "transpose_a") == "TRANSPOSE_INVALID")
    return ctx.error("Invalid transpose option value for triangular solve");
  return checkInferredTypes(ctx, {b});
}

bool verifyRngBitGenerator(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 1 || ctx.op.numResults() == 0)
    return true;
  ir::Type initial = ctx.operandType(0), output = ctx.resultType(0);
  if (!compatibleShapes(initial.shape(), output.shape()))
    return ctx.error("output state shape must be compatible with initial state shape. Got: " +
                     quoted(initial) + " and " + quoted(output));
  return true;
}

bool fftInfer(const OpContext& ctx) {
  std::optional<std::vector<int64_t>> length = ctx.intList("fft_length");
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 1 || !length)
    return true;
  int64_t fftRank = static_cast<int64_t>(length->size());
  if (fftRank > 3 || fftRank < 1)
    return ctx.error("rank must be between 1 and 3, but got " + std::to_string(fftRank) + ".");
  std::string type = ir::stablehlo::enumCase(ctx.op, "fft_type");
  bool rfft = type == "RFFT", irfft = type == "IRFFT";
  ir::Type operand = ctx.operandType(0);
  ir::ElementType element = operand.elementType();
  if (rfft && element != ir::ElementType::F32 && element != ir::ElementType::F64)
    return ctx.error("RFFT requires f32 or f64 input type, but is given '" +
                     std::string(ir::elementTypeName(element)) + "'.");
  if (!rfft && !ir::isComplexElement(element))
    return ctx.error("FFT/IFFT/IRFFT take a complex tensor as input, but is given " +
                     quoted(operand) + ".");
  ir::ElementType resultElement = element;
  if (rfft)
    resultElement = element == ir::ElementType::F64 ? ir::ElementType::Complex128
                                                    : ir::ElementType::Complex64;
  else if (irfft)
    resultElement = element == ir::ElementType::Complex128 ? ir::ElementType::F64
                                                           : ir::ElementType::F32;
  std::span<const int64_t> shape = operand.shape();
  int64_t rank = static_cast<int64_t>(shape.size());
  if (rank < fftRank)
    return ctx.error("operand rank must not be less than fft rank of " + std::to_string(fftRank) +
                     " for operand of type " + quoted(operand) + ".");
  std::vector<int64_t> result(shape.begin(), shape.end());
  std::span<const int64_t> back = shape.last(fftRank);
  if (rfft) {
    for (int64_t i = 0; i < fftRank; ++i)
      if (!compatibleDims(back[i], (*length)[i]))
        return ctx.error("RFFT requires innermost dimensions to be compatible with fft_length. "
                         "Got: " +
                         joinInts(shape) + " but wanted " + joinInts(*length) + ".");
    if (length->back() != 0)
      result.back() = length->back() / 2 + 1;
  }
  if (irfft) {
    for (int64_t i = 0; i + 1 < fftRank; ++i)
      if (!compatibleDims(back[i], (*length)[i]))
        return ctx.error("IRFFT requires non-final dimensions to be compatible with fft_length. "
                         "Got: " +
                         joinInts(shape) + " but wanted " + joinInts(*length) + ", and " +
                         std::to_string(back[i]) + " != " + std::to_string((*length)[i]) + ".");
    if ((!compatibleDims(shape.back(), 0) || length->back() != 0) &&
        !compatibleDims(shape.back(), length->back() / 2 + 1))
      return ctx.error("IRFFT requires innermost dimension to be compatible with "
                       "fft_length[-1]/2+1. Got: " +
                       std::to_string(shape.back()) + " but fft_length is " +
                       joinInts(*length) + ".");
    result.back() = length->back();
  }
  return checkInferredTensor(ctx, result, resultElement);
}

} // namespace

void addLinalgRules(RuleTable& table) {
  table.emplace("stablehlo.batch_norm_grad", OpRules{&batchNormEntry, &batchNormGradInfer});
  table.emplace("stablehlo.batch_norm_inference",
                OpRules{&batchNormEntry, &batchNormInferenceInfer});
  table.emplace("stablehlo.batch_norm_training",
                OpRules{&batchNormEntry, &batchNormTrainingInfer});
  table.emplace("stablehlo.cholesky", OpRules{&compatibleElementsEntry, &choleskyInfer});
  table.emplace("stablehlo.triangular_solve",
                OpRules{&compatibleElementsEntry, &triangularSolveInfer});
  table.emplace("stablehlo.rng_bit_generator", OpRules{&verifyRngBitGenerator, nullptr});
  table.emplace("stablehlo.fft", OpRules{nullptr, &fftInfer});
}

} // namespace shardscope::verify::detail
