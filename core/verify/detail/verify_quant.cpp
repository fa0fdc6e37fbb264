#include "core/verify/detail/quant_rules.h"

#include "core/ir/quant_type.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace shardscope::verify::detail {

namespace {

// A tensor's element: a plain element type or a readable quantized one.
struct Element {
  std::optional<ir::QuantType> quant;
  ir::ElementType plain = ir::ElementType::F32;
};

std::optional<Element> elementOf(ir::Type type) {
  if (isTensor(type))
    return Element{std::nullopt, type.elementType()};
  if (std::optional<ir::QuantType> q = ir::quantTypeOf(type))
    return Element{q, q->storage};
  return std::nullopt;
}

// The elements of `types`; nothing when one is not readable (the caller skips the rule).
std::optional<std::vector<Element>> elementsOf(std::initializer_list<ir::Type> types) {
  std::vector<Element> out;
  for (ir::Type t : types) {
    std::optional<Element> e = elementOf(t);
    if (!e)
      return std::nullopt;
    out.push_back(std::move(*e));
  }
  return out;
}

// A double as MLIR streams it into a diagnostic (`2.000000e-01`).
std::string mlirDouble(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%e", value);
  return buffer;
}

std::string quotedElement(ir::ElementType e) {
  return "'" + std::string(ir::elementTypeName(e)) + "'";
}

// `verifyConvolutionDotGeneralCommonQuantizationConstraints`.
bool checkCommonContraction(const OpContext& ctx, const Element& lhs, const Element& rhs,
                            const Element& result) {
  if (!rhs.quant || lhs.quant.has_value() != result.quant.has_value())
    return ctx.error("rhs should be quantized for quantized operations and "
                     "is_quantized(lhs)=is_quantized(result) should hold");
  if (lhs.quant) {
    if (lhs.quant->storage != rhs.quant->storage)
      return ctx.error("mismatched lhs and rhs quantization storage types");
    if (lhs.quant->expressed != rhs.quant->expressed ||
        lhs.quant->expressed != result.quant->expressed)
      return ctx.error("mismatched lhs, rhs and result quantization expressed types");
    if (!rhs.quant->perAxis() && result.quant->perAxis())
      return ctx.error("mismatched rhs and result quantization granularity");
    return true;
  }
  if (lhs.plain != rhs.quant->expressed || lhs.plain != result.plain)
    return ctx.error("mismatched rhs quantization expressed type and lhs and result element type");
  return true;
}

bool uniformQuantizeEntry(const OpContext& ctx) {
  if (ctx.op.numOperands() != 1 || ctx.op.numResults() != 1)
    return true;
  std::optional<ir::QuantType> result = ir::quantTypeOf(ctx.resultType(0));
  std::optional<Element> operand = elementOf(ctx.operandType(0));
  if (!result || !operand)
    return true;
  if (!operand->quant && !ir::isFloatElement(operand->plain))
    return true; // an integer operand: the ODS operand type class, not modelled
  ir::ElementType expected = operand->quant ? operand->quant->expressed : operand->plain;
  if (result->expressed != expected)
    return ctx.error("Expressed type of result expected to be " + quotedElement(expected) +
                     ", but got " + quotedElement(result->expressed));
  return true;
}

// `inferUniformDequantizeOp`: the operand's shape in its expressed type.
bool uniformDequantizeInfer(const OpContext& ctx) {
  if (ctx.op.numOperands() != 1 || ctx.op.numResults() != 1)
    return true;
  std::optional<ir::QuantType> operand = ir::quantTypeOf(ctx.operandType(0));
  if (!operand || !isTensor(ctx.resultType(0)))
    return true;
  return checkInferredTypes(ctx, {operand->expressedType()});
}

// Where an op's ODS admits per-axis quantized tensors: every operand (or result), none, or the
// one at `index` (the kernel of a convolution, the rhs of a dot).
struct Slots {
  enum Kind : uint8_t { None, All, One } kind = None;
  unsigned index = 0;
  bool admits(unsigned i) const { return kind == All || (kind == One && i == index); }
};
constexpr Slots kNone{Slots::None}, kAll{Slots::All};
constexpr Slots only(unsigned index) { return Slots{Slots::One, index}; }

struct PerAxisSlots {
  Slots operands, results;
};

// StableHLO's ops whose ODS names a per-axis quantized class (StablehloOps.td); the ops not
// listed take and give `HLO_Tensor`s (`custom_call`, which takes any tensor, is not judged).
const std::unordered_map<std::string_view, PerAxisSlots>& perAxisSlots() {
  static const std::unordered_map<std::string_view, PerAxisSlots> table = {
      {"stablehlo.add", {kAll, kAll}},
      {"stablehlo.constant", {kNone, kAll}},
      {"stablehlo.infeed", {kNone, kAll}},
      {"stablehlo.recv", {kNone, kAll}},
      {"stablehlo.outfeed", {kAll, kNone}},
      {"stablehlo.send", {kAll, kNone}},
      {"stablehlo.if", {kNone, kAll}},
      {"stablehlo.case", {kNone, kAll}},
      {"stablehlo.while", {kAll, kAll}},
      {"stablehlo.tuple", {kAll, kAll}},
      {"stablehlo.get_tuple_element", {kAll, kAll}},
      {"stablehlo.composite", {kAll, kAll}},
      {"stablehlo.return", {kAll, kNone}},
      {"stablehlo.bitcast_convert", {kAll, kAll}},
      {"stablehlo.broadcast", {kNone, kAll}},
      {"stablehlo.broadcast_in_dim", {kAll, kAll}},
      {"stablehlo.dynamic_broadcast_in_dim", {only(0), kAll}},
      {"stablehlo.convolution", {only(1), kAll}},
      {"stablehlo.dot", {only(1), kAll}},
      {"stablehlo.dot_general", {only(1), kAll}},
      {"stablehlo.get_dimension_size", {kAll, kNone}},
      {"stablehlo.reshape", {kAll, kAll}},
      {"stablehlo.dynamic_reshape", {only(0), kAll}},
      {"stablehlo.transpose", {kAll, kAll}},
      {"stablehlo.uniform_quantize", {kAll, kAll}},
      {"stablehlo.uniform_dequantize", {kAll, kAll}},
  };
  return table;
}

// The ops whose operands ODS declares as one variadic group (its message then says "variadic
// of").
bool hasVariadicOperands(std::string_view op) {
  static constexpr std::string_view kVariadic[] = {
      "stablehlo.all_gather", "stablehlo.all_reduce",          "stablehlo.all_to_all",
      "stablehlo.reduce",     "stablehlo.reduce_window",       "stablehlo.sort",
      "stablehlo.map",        "stablehlo.concatenate",         "stablehlo.scatter",
      "stablehlo.optimization_barrier"};
  return std::ranges::find(kVariadic, op) != std::end(kVariadic);
}

// True when `type` is not quantized or is a quantized tensor the slot admits.
bool admitted(ir::Type type, bool perAxisAdmitted) {
  if (!isQuantized(type))
    return true;
  if (type.opaqueText().starts_with("tensor<*"))
    return false; // every class is of ranked tensors
  std::optional<ir::QuantType> q = ir::parseQuantTensorText(type.opaqueText());
  if (!q)
    return true; // a form not read here (dynamic shape, encoding): not judged
  return ir::isValidStablehloQuantType(*q) && (!q->perAxis() || perAxisAdmitted);
}

std::string typeClass(bool perAxisAdmitted) {
  return perAxisAdmitted ? "ranked tensor of float, pred, integer, complex, per-tensor or "
                           "per-axis integer quantized values"
                         : "ranked tensor of float, pred, integer, complex or per-tensor integer "
                           "quantized values";
}

} // namespace

bool checkQuantTypeClasses(const OpContext& ctx) {
  std::string_view name = ctx.op.name();
  if (!name.starts_with("stablehlo.") || name == "stablehlo.custom_call")
    return true;
  PerAxisSlots slots{kNone, kNone};
  if (auto it = perAxisSlots().find(name); it != perAxisSlots().end())
    slots = it->second;
  auto check = [&](const char* kind, unsigned i, ir::Type type, Slots admits, bool variadic) {
    if (admitted(type, admits.admits(i)))
      return true;
    return ctx.opError(std::string(kind) + " #" + std::to_string(i) + " must be " +
                       (variadic ? "variadic of " : "") + typeClass(admits.admits(i)) +
                       ", but got " + quoted(type));
  };
  for (unsigned i = 0; i < ctx.op.numOperands(); ++i)
    if (!check("operand", i, ctx.operandType(i), slots.operands, hasVariadicOperands(name)))
      return false;
  for (unsigned i = 0; i < ctx.op.numResults(); ++i)
    if (!check("result", i, ctx.resultType(i), slots.results, hasVariadicResults(name)))
      return false;
  return true;
}

bool isQuantized(ir::Type type) {
  return type && type.kind() == ir::Type::Kind::Opaque &&
         type.opaqueText().starts_with("tensor<") &&
         type.opaqueText().find("!quant.") != std::string_view::npos;
}

std::optional<std::vector<int64_t>> shapeOf(ir::Type type) {
  if (isTensor(type))
    return std::vector<int64_t>(type.shape().begin(), type.shape().end());
  if (std::optional<ir::QuantType> q = ir::quantTypeOf(type))
    return q->shape;
  return std::nullopt;
}

std::optional<ir::ElementType> elementOrStorageOf(ir::Type type) {
  if (isTensor(type))
    return type.elementType();
  if (std::optional<ir::QuantType> q = ir::quantTypeOf(type))
    return q->storage;
  return std::nullopt;
}

bool anyQuantized(std::span<const ir::Type> types) {
  return std::ranges::any_of(types, [](ir::Type t) { return isQuantized(t); });
}

bool checkBinaryQuantization(const OpContext& ctx, ir::Type lhsType, ir::Type rhsType,
                             ir::Type resultType) {
  std::optional<std::vector<Element>> elements = elementsOf({lhsType, rhsType, resultType});
  if (!elements)
    return true;
  const Element &lhs = (*elements)[0], &rhs = (*elements)[1], &result = (*elements)[2];
  if (!lhs.quant || !rhs.quant || !result.quant)
    return ctx.error("expects  all operands and results to be either quantized or non-quantized");
  ir::ElementType storage = lhs.quant->storage;
  if (rhs.quant->storage != storage || result.quant->storage != storage)
    return ctx.error("mismatched operands and result quantization storage types");
  ir::ElementType expressed = lhs.quant->expressed;
  if (rhs.quant->expressed != expressed || result.quant->expressed != expressed)
    return ctx.error("mismatched operands and result quantization expressed types");
  if (lhs.quant->perAxis() || rhs.quant->perAxis()) {
    if (!result.quant->perAxis())
      return ctx.error("result is not per_axis quantized but lhs or rhs are");
    if (lhs.quant->perAxis() && lhs.quant->axis != result.quant->axis)
      return ctx.error("quantization_dimension of lhs and result are not same " + quoted(lhsType) +
                       " vs " + quoted(resultType));
    if (rhs.quant->perAxis() && rhs.quant->axis != result.quant->axis)
      return ctx.error("quantization_dimension of rhs and result are not same " + quoted(rhsType) +
                       " vs " + quoted(resultType));
    return true;
  }
  if (result.quant->perAxis())
    return ctx.error("result per_axis quantized but none from rhs and lhs are per_axis quantized");
  return true;
}

bool checkConvolutionQuantization(const OpContext& ctx, ir::Type lhsType, ir::Type rhsType,
                                  ir::Type resultType, int64_t kernelOutputFeature,
                                  int64_t outputFeature) {
  std::optional<std::vector<Element>> elements = elementsOf({lhsType, rhsType, resultType});
  if (!elements)
    return true;
  const Element &lhs = (*elements)[0], &rhs = (*elements)[1], &result = (*elements)[2];
  if (rhs.quant && rhs.quant->perAxis() && rhs.quant->axis != kernelOutputFeature)
    return ctx.error(
        "quantization dimension of rhs should be same with kernel_output_feature_dimension");
  if (result.quant && result.quant->perAxis() && result.quant->axis != outputFeature)
    return ctx.error(
        "quantization dimension of result should be same with output_feature_dimension");
  return checkCommonContraction(ctx, lhs, rhs, result);
}

bool checkDotGeneralQuantization(const OpContext& ctx, ir::Type lhsType, ir::Type rhsType,
                                 ir::Type resultType, std::span<const int64_t> rhsContracting) {
  std::optional<std::vector<Element>> elements = elementsOf({lhsType, rhsType, resultType});
  if (!elements)
    return true;
  const Element &lhs = (*elements)[0], &rhs = (*elements)[1], &result = (*elements)[2];
  if (rhs.quant && !rhs.quant->perAxis() && rhs.quant->zeroPoints[0] != 0)
    return ctx.error("Zero point of rhs should be 0");
  if (rhs.quant && rhs.quant->perAxis()) {
    if (std::ranges::any_of(rhs.quant->zeroPoints, [](int64_t zp) { return zp != 0; }))
      return ctx.error("Zero points of rhs should be 0");
    if (std::ranges::find(rhsContracting, rhs.quant->axis) != rhsContracting.end())
      return ctx.error(
          "Quantization dimension of rhs should not be in the contracting dimension of rhs");
  }
  return checkCommonContraction(ctx, lhs, rhs, result);
}

bool checkSamePerTensorQuantization(const OpContext& ctx, ir::Type a, ir::Type b) {
  std::optional<ir::QuantType> qa = ir::quantTypeOf(a), qb = ir::quantTypeOf(b);
  if (!qa || !qb || qa->perAxis() || qb->perAxis() || qa->sameElement(*qb))
    return true;
  return ctx.error("expect same quantization scale and zero_point but got " + quoted(a) + " vs " +
                   quoted(b));
}

// StableHLO's `isSameQuantPerAxisScaleZeroPoint` compares the parameters pairwise up to the
// shorter list (a size difference is left to the dimension-size rules).
bool sameLeadingParameters(const ir::QuantType& a, const ir::QuantType& b) {
  size_t n = std::min(a.scales.size(), b.scales.size());
  return std::equal(a.scales.begin(), a.scales.begin() + static_cast<std::ptrdiff_t>(n),
                    b.scales.begin()) &&
         std::equal(a.zeroPoints.begin(), a.zeroPoints.begin() + static_cast<std::ptrdiff_t>(n),
                    b.zeroPoints.begin());
}

// `verifyQPerAxisScaleAndZeroPointConstraints`: two per-axis quantized types have the same
// parameters.
bool checkSamePerAxisQuantization(const OpContext& ctx, ir::Type a, ir::Type b) {
  std::optional<ir::QuantType> qa = ir::quantTypeOf(a), qb = ir::quantTypeOf(b);
  if (!qa || !qb || !qa->perAxis() || !qb->perAxis() ||
      sameLeadingParameters(*qa, *qb))
    return true;
  return ctx.error("expect same quantization scales and zero_points but got " + quoted(a) +
                   " vs " + quoted(b));
}

bool checkTransposeQuantization(const OpContext& ctx, ir::Type operandType, ir::Type resultType,
                                std::span<const int64_t> permutation) {
  if (!checkSamePerTensorQuantization(ctx, operandType, resultType) ||
      !checkSamePerAxisQuantization(ctx, operandType, resultType))
    return false;
  std::optional<ir::QuantType> operand = ir::quantTypeOf(operandType);
  std::optional<ir::QuantType> result = ir::quantTypeOf(resultType);
  if (!operand || !result || !operand->perAxis() || !result->perAxis() ||
      result->axis >= static_cast<int64_t>(permutation.size()))
    return true;
  int64_t mapped = permutation[static_cast<size_t>(result->axis)];
  if (operand->axis != mapped)
    return ctx.error("operand quantization_dimension " + std::to_string(operand->axis) +
                     " is not same as permutation[" + std::to_string(result->axis) +
                     "] = " + std::to_string(mapped));
  return true;
}

bool checkReshapeQuantization(const OpContext& ctx, ir::Type operandType, ir::Type resultType) {
  if (!checkSamePerTensorQuantization(ctx, operandType, resultType) ||
      !checkSamePerAxisQuantization(ctx, operandType, resultType))
    return false;
  std::optional<ir::QuantType> operand = ir::quantTypeOf(operandType);
  std::optional<ir::QuantType> result = ir::quantTypeOf(resultType);
  if (!operand || !result || !operand->perAxis() || !result->perAxis())
    return true;
  size_t operandDim = static_cast<size_t>(operand->axis), resultDim = static_cast<size_t>(result->axis);
  if (operand->shape[operandDim] != result->shape[resultDim])
    return ctx.error("expect same quantization dimension size for operand and result " +
                     quoted(operandType) + " and " + quoted(resultType));
  auto productBefore = [](const ir::QuantType& q, size_t dim) {
    uint64_t product = 1; // unsigned, as StableHLO computes it: no overflow to report
    for (size_t d = 0; d < dim; ++d)
      product *= static_cast<uint64_t>(q.shape[d]);
    return product;
  };
  uint64_t operandProduct = productBefore(*operand, operandDim);
  uint64_t resultProduct = productBefore(*result, resultDim);
  if (operandProduct != resultProduct)
    return ctx.error("product of dimensions before quantization dimension must match between "
                     "operand and result for " +
                     std::to_string(operandProduct) + " and " + std::to_string(resultProduct));
  return true;
}

bool checkBroadcastQuantization(const OpContext& ctx, ir::Type operandType, ir::Type resultType,
                                std::span<const int64_t> dims) {
  std::optional<ir::QuantType> operand = ir::quantTypeOf(operandType);
  std::optional<ir::QuantType> result = ir::quantTypeOf(resultType);
  if (!operand || !result || !operand->perAxis() || !result->perAxis() ||
      operand->axis >= static_cast<int64_t>(dims.size()))
    return true;
  int64_t operandDim = operand->axis, resultDim = result->axis;
  int64_t mapped = dims[static_cast<size_t>(operandDim)];
  if (resultDim != mapped)
    return ctx.error("result quantization_dimension " + std::to_string(resultDim) +
                     " not same as broadcast_dimensions[" + std::to_string(operandDim) +
                     "] = " + std::to_string(mapped));
  if (operand->shape[static_cast<size_t>(operandDim)] != 1)
    return true;
  for (size_t i = 0; i < result->scales.size(); ++i) {
    if (result->scales[i] != operand->scales[0])
      return ctx.error("mismatch result scale " + std::to_string(i) + " (" +
                       mlirDouble(result->scales[i]) + ") and operand scale 0 (" +
                       mlirDouble(operand->scales[0]) + ")");
    if (result->zeroPoints[i] != operand->zeroPoints[0])
      return ctx.error("mismatch result zero_point " + std::to_string(i) + " (" +
                       std::to_string(result->zeroPoints[i]) + ") and operand zero_point 0 (" +
                       std::to_string(operand->zeroPoints[0]) + ")");
  }
  return true;
}

void addQuantRules(RuleTable& table) {
  table.emplace("stablehlo.uniform_quantize", OpRules{&uniformQuantizeEntry, nullptr});
  table.emplace("stablehlo.uniform_dequantize", OpRules{nullptr, &uniformDequantizeInfer});
}

} // namespace shardscope::verify::detail

namespace shardscope::verify::detail {

namespace {

// `isPromotableElementType` on quantized types: both quantized with one expressed type, the
// storage no narrower.
bool quantPromotable(const ir::QuantType& from, const ir::QuantType& to) {
  return from.expressed == to.expressed &&
         ir::elementBitWidth(from.storage) <= ir::elementBitWidth(to.storage);
}

// `tensor<!quant.uniform<...>>`: the rank-0 type of `q`'s elements, as a reducer takes them.
ir::QuantType scalarOf(ir::QuantType q) {
  q.shape.clear();
  return q;
}

std::string elementText(const ir::QuantType& q) {
  std::string text = q.printedText();
  size_t at = text.find("!quant.");
  return at == std::string::npos ? text : text.substr(at, text.size() - at - 1);
}

} // namespace

bool hasVariadicResults(std::string_view op) {
  static constexpr std::string_view kVariadic[] = {
      "stablehlo.all_gather",  "stablehlo.all_reduce",         "stablehlo.all_to_all",
      "stablehlo.reduce",      "stablehlo.reduce_window",      "stablehlo.sort",
      "stablehlo.scatter",     "stablehlo.optimization_barrier", "stablehlo.if",
      "stablehlo.case",        "stablehlo.collective_broadcast", "stablehlo.collective_reduce"};
  return std::ranges::find(kVariadic, op) != std::end(kVariadic);
}

bool checkQuantizedReducers(const OpContext& ctx) {
  // The reductions and, per input, the types `verifyReducerShape` is called with: the input and
  // the init value (for the ops without init operands, the input's element as a scalar).
  const std::string_view name = ctx.op.name();
  const unsigned n = ctx.op.numOperands();
  std::vector<ir::Type> inputs, inits;
  if (name == "stablehlo.reduce" || name == "stablehlo.reduce_window") {
    for (unsigned i = 0; i < n / 2; ++i) {
      inputs.push_back(ctx.operandType(i));
      inits.push_back(ctx.operandType(n / 2 + i));
    }
  } else if (name == "stablehlo.all_reduce" || name == "stablehlo.reduce_scatter" ||
             name == "stablehlo.collective_reduce") {
    for (unsigned i = 0; i < n; ++i) {
      inputs.push_back(ctx.operandType(i));
      inits.push_back(ctx.operandType(i)); // made scalar below
    }
  } else if (name == "stablehlo.scatter") {
    for (unsigned i = 0; i < (n - 1) / 2; ++i) {
      inputs.push_back(ctx.operandType(i));
      inits.push_back(ctx.operandType((n - 1) / 2 + 1 + i)); // the updates, made scalar below
    }
  } else if (name == "stablehlo.select_and_scatter" && n == 3) {
    inputs.push_back(ctx.operandType(1)); // the source, made scalar below
    inits.push_back(ctx.operandType(2));
  } else {
    return true;
  }
  const unsigned region = name == "stablehlo.select_and_scatter" ? 1 : 0;
  if (!anyQuantized(inputs) || ctx.op.numRegions() <= region || ctx.op.region(region).empty())
    return true;
  const ir::Block& block = ctx.op.region(region).front();
  const ir::Operation* terminator = block.back();
  const size_t count = inputs.size();
  if (!terminator || terminator->numOperands() != count || block.numArguments() != 2 * count)
    return true; // the reducer's shape rules report it
  for (size_t i = 0; i < count; ++i) {
    std::optional<ir::QuantType> input = ir::quantTypeOf(inputs[i]);
    std::optional<ir::QuantType> init = ir::quantTypeOf(inits[i]);
    std::optional<ir::QuantType> acc = ir::quantTypeOf(terminator->operand(i)->type());
    std::optional<ir::QuantType> arg =
        ir::quantTypeOf(block.argument(static_cast<unsigned>(count + i))->type());
    if (!input || !init || !acc || !arg)
      continue;
    const ir::QuantType initScalar = name == "stablehlo.reduce" ||
                                             name == "stablehlo.reduce_window" ||
                                             name == "stablehlo.select_and_scatter"
                                         ? *init
                                         : scalarOf(*init);
    const std::string index = std::to_string(i), index2 = std::to_string(count + i);
    if (!quantPromotable(initScalar, *acc))
      return ctx.error("The element-type of reduction-region's result type at index " + index +
                       " is expected to be promotable from the op's corresponding init-value "
                       "element-type: " +
                       quoted(terminator->operand(i)->type()) + " vs " +
                       quoted(initScalar.type()));
    if (!quantPromotable(*input, *arg))
      return ctx.error("The element-type of reduction-region's argument at index " + index2 +
                       " is expected to be promotable from '" + elementText(*input) +
                       "', but got '" + elementText(*arg) + "'");
  }
  return true;
}

} // namespace shardscope::verify::detail
