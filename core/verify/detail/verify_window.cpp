// Windowed ops: `reduce_window`, `select_and_scatter` and `convolution` (TypeInference.cpp:
// `convertPaddingAttribute`, `verifyWindowAttributesAndInferWindowDimensions`,
// `inferWindowOutputShape`, `verifyReduceWindowOpInputsAndInferWindow`, `inferReduceWindowOp`,
// `verifySelectAndScatterOp`, `inferSelectAndScatterOp`, `isSpatialDimensionsValid`,
// `verifyConvolutionAttributes`, `inferConvolutionOp`, `verifyConvolutionOp`, `inferDynamicConvOp`,
// `verifyDynamicConvOp`).

#include "core/verify/detail/op_context.h"
#include "core/verify/detail/quant_rules.h"

#include "core/ir/attribute.h"
#include "core/ir/stablehlo_attrs.h"

#include <unordered_set>

namespace shardscope::verify::detail {

namespace {

struct WindowDim {
  int64_t size = 1, stride = 1, baseDilation = 1, windowDilation = 1, padLow = 0, padHigh = 0;
};

// `convertPaddingAttribute`: an `N x 2` integer tensor, or no padding.
std::optional<std::vector<std::pair<int64_t, int64_t>>> paddingOf(const OpContext& ctx) {
  std::vector<std::pair<int64_t, int64_t>> out;
  const auto* padding = ctx.op.attr("padding").as<ir::DenseElementsAttr>();
  if (!padding || !isTensor(padding->type))
    return out;
  std::span<const int64_t> shape = padding->type.shape();
  if (shape.size() != 2 || shape[1] != 2) {
    ctx.error("expects the shape of padding-attribute to be {N, 2}, but got {" + joinInts(shape) +
              "}.");
    return std::nullopt;
  }
  for (int64_t i = 0; i + 1 < padding->numElements(); i += 2)
    out.emplace_back(padding->intAt(i), padding->intAt(i + 1));
  return out;
}

// `verifyWindowAttributesAndInferWindowDimensions`.
std::optional<std::vector<WindowDim>> windowOf(const OpContext& ctx, std::span<const int64_t> dims,
                                               std::span<const int64_t> strides,
                                               const std::vector<std::pair<int64_t, int64_t>>& pad,
                                               std::span<const int64_t> baseDilations,
                                               std::span<const int64_t> windowDilations,
                                               size_t reversals = 0) {
  auto sizeOk = [&](size_t size, std::string_view name) {
    if (size == 0 || size == dims.size())
      return true;
    ctx.error("expects " + std::string(name) +
              " to have same dimension-size as size of window dimensions (" +
              std::to_string(dims.size()) + "), but got: " + std::to_string(size) + ".");
    return false;
  };
  if (!sizeOk(strides.size(), "window-strides") ||
      !sizeOk(baseDilations.size(), "base-dilation factors") ||
      !sizeOk(windowDilations.size(), "window-dilation factors") ||
      !sizeOk(pad.size(), "padding-entries") || !sizeOk(reversals, "window-reversal"))
    return std::nullopt;
  std::vector<WindowDim> window(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    WindowDim& w = window[i];
    std::string index = std::to_string(i);
    w.size = dims[i];
    auto positive = [&](int64_t value, std::string_view what) {
      if (value > 0)
        return true;
      ctx.error("expects window to have positive " + std::string(what) + " for " + index +
                "-th window dimension, but got " + std::to_string(value) + ".");
      return false;
    };
    if (isStaticDim(w.size) && !positive(w.size, "value"))
      return std::nullopt;
    if (!strides.empty())
      w.stride = strides[i];
    if (!positive(w.stride, "stride"))
      return std::nullopt;
    if (!baseDilations.empty())
      w.baseDilation = baseDilations[i];
    if (!positive(w.baseDilation, "base dilation factor"))
      return std::nullopt;
    if (!windowDilations.empty())
      w.windowDilation = windowDilations[i];
    if (!positive(w.windowDilation, "window dilation factor"))
      return std::nullopt;
    if (!pad.empty()) {
      w.padLow = pad[i].first;
      w.padHigh = pad[i].second;
    }
  }
  return window;
}

int64_t dilated(int64_t bound, int64_t dilation) {
  return bound == 0 ? 0 : (bound - 1) * dilation + 1;
}

// `inferWindowOutputShape`: the number of window positions per dimension.
std::vector<int64_t> windowOutputShape(std::span<const int64_t> base,
                                       const std::vector<WindowDim>& window) {
  std::vector<int64_t> out(window.size());
  for (size_t i = 0; i < window.size(); ++i) {
    const WindowDim& w = window[i];
    if (!isStaticDim(base[i]) || !isStaticDim(w.size)) {
      out[i] = ir::kDynamicSize;
      continue;
    }
    int64_t padded = w.padLow + dilated(base[i], w.baseDilation) + w.padHigh;
    int64_t windowSize = dilated(w.size, w.windowDilation);
    out[i] = padded <= 0 || windowSize > padded ? 0 : (padded - windowSize) / w.stride + 1;
  }
  return out;
}

std::vector<ir::Type> terminatorTypes(const ir::Region& region) {
  std::vector<ir::Type> types;
  if (!region.empty())
    if (const ir::Operation* terminator = region.front().back())
      for (const ir::Value* v : terminator->operands())
        types.push_back(v->type());
  return types;
}

// The window of `reduce_window`, or nothing after reporting.
std::optional<std::vector<WindowDim>> reduceWindowOf(const OpContext& ctx,
                                                     const std::vector<ir::Type>& inputs) {
  std::optional<std::vector<int64_t>> dims = ctx.intList("window_dimensions");
  if (!dims) {
    ctx.missingAttr("window_dimensions");
    return std::nullopt;
  }
  if (inputs.empty()) {
    ctx.error("requires at least 1 input value");
    return std::nullopt;
  }
  for (size_t i = 1; i < inputs.size(); ++i)
    if (!compatibleShapes(inputs[0].shape(), inputs[i].shape())) {
      ctx.error("expects all inputs to have compatible shapes. Shape at input-index " +
                std::to_string(i) + " is not compatible with shape at input-index 0");
      return std::nullopt;
    }
  std::optional<std::vector<std::pair<int64_t, int64_t>>> pad = paddingOf(ctx);
  if (!pad)
    return std::nullopt;
  for (const ir::Type& input : inputs)
    if (input.rank() != static_cast<int64_t>(dims->size())) {
      ctx.error("expects window-dimensions size == input rank, but got window-dimensions size: " +
                std::to_string(dims->size()) + " and input: " + quoted(input) +
                " with rank = " + std::to_string(input.rank()) + ".");
      return std::nullopt;
    }
  return windowOf(ctx, *dims, ctx.intListOrEmpty("window_strides"), *pad,
                  ctx.intListOrEmpty("base_dilations"), ctx.intListOrEmpty("window_dilations"));
}

bool reduceWindowOperands(const OpContext& ctx, std::vector<ir::Type>& inputs,
                          std::vector<ir::Type>& inits) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() % 2 != 0 || ctx.op.numRegions() != 1 ||
      ctx.op.region(0).empty())
    return false;
  unsigned n = ctx.op.numOperands() / 2;
  for (unsigned i = 0; i < n; ++i) {
    inputs.push_back(ctx.operandType(i));
    inits.push_back(ctx.operandType(n + i));
  }
  return true;
}

bool reduceWindowEntry(const OpContext& ctx) {
  std::vector<ir::Type> inputs, inits;
  if (!reduceWindowOperands(ctx, inputs, inits))
    return true;
  if (!reduceWindowOf(ctx, inputs))
    return false;
  std::vector<int64_t> dims = ctx.intListOrEmpty("window_dimensions");
  return checkReducerShape(ctx, ctx.op.region(0).front(), inputs, inits, dims);
}

bool reduceWindowInfer(const OpContext& ctx) {
  std::vector<ir::Type> inputs, inits;
  if (!reduceWindowOperands(ctx, inputs, inits))
    return true;
  std::optional<std::vector<WindowDim>> window = reduceWindowOf(ctx, inputs);
  if (!window)
    return false;
  std::vector<ir::Type> acc = terminatorTypes(ctx.op.region(0));
  std::vector<ir::Type> inferred;
  for (size_t i = 0; i < inputs.size(); ++i) {
    ir::Type element = i < acc.size() && isTensor(acc[i]) ? acc[i] : inputs[i];
    inferred.push_back(
        ir::Type::tensor(windowOutputShape(inputs[i].shape(), *window), element.elementType()));
  }
  return checkInferredTypes(ctx, inferred);
}

bool selectAndScatterEntry(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 3 || ctx.op.numRegions() != 2 ||
      ctx.op.region(0).empty() || ctx.op.region(1).empty())
    return true;
  ir::Type operand = ctx.operandType(0), source = ctx.operandType(1), init = ctx.operandType(2);
  const ir::Block& select = ctx.op.region(0).front();
  if (select.numArguments() != 2)
    return ctx.error("expects the select-region to take 2 parameters, but takes " +
                     std::to_string(select.numArguments()));
  ir::Type scalar = ir::Type::tensor({}, operand.elementType());
  for (unsigned i = 0; i < 2; ++i) {
    ir::Type arg = select.argument(i)->type();
    bool ok = isTensor(arg) && arg.rank() == 0 &&
              (arg.elementType() == operand.elementType() ||
               (ir::isFloatElement(arg.elementType()) && ir::isFloatElement(operand.elementType())));
    if (!ok && arg.kind() != ir::Type::Kind::Opaque)
      return ctx.error("expects the type of select-region's parameter at index " +
                       std::to_string(i) + " to be " + quoted(scalar) + ", but got " + quoted(arg));
  }
  std::vector<ir::Type> selected = terminatorTypes(ctx.op.region(0));
  if (selected.size() != 1)
    return ctx.error("expects select-region to return single value, but got: " +
                     std::to_string(selected.size()));
  if (!isTensor(selected[0]) || selected[0].rank() != 0 ||
      selected[0].elementType() != ir::ElementType::I1)
    return ctx.error("expects the return-type of select-region to be tensor<i1>, but got: " +
                     quoted(selected[0]));
  ir::Type sourceScalar = ir::Type::tensor({}, source.elementType());
  if (!checkReducerShape(ctx, ctx.op.region(1).front(), {&sourceScalar, 1}, {&init, 1}, {}))
    return false;
  std::vector<int64_t> dims = ctx.intListOrEmpty("window_dimensions");
  if (operand.rank() != static_cast<int64_t>(dims.size()))
    return ctx.error("expects window-dimensions size == operand rank, but got window-dimensions "
                     "size: " +
                     std::to_string(dims.size()) + " and operand-type: " + quoted(operand) +
                     " with rank = " + std::to_string(operand.rank()) + ".");
  std::optional<std::vector<std::pair<int64_t, int64_t>>> pad = paddingOf(ctx);
  if (!pad)
    return false;
  std::optional<std::vector<WindowDim>> window =
      windowOf(ctx, dims, ctx.intListOrEmpty("window_strides"), *pad, {}, {});
  if (!window)
    return false;
  ir::Type expected =
      ir::Type::tensor(windowOutputShape(operand.shape(), *window), operand.elementType());
  bool sameElement = source.elementType() == operand.elementType() ||
                     (ir::isFloatElement(source.elementType()) &&
                      ir::isFloatElement(operand.elementType()));
  if (!compatibleShapes(expected.shape(), source.shape()) || !sameElement)
    return ctx.error("expects source-type to be " + quoted(expected) + ", but got" +
                     quoted(source));
  return true;
}

bool selectAndScatterInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 3 || ctx.op.numRegions() != 2)
    return true;
  ir::Type operand = ctx.operandType(0);
  std::vector<ir::Type> acc = terminatorTypes(ctx.op.region(1));
  ir::ElementType element =
      !acc.empty() && isTensor(acc[0]) ? acc[0].elementType() : operand.elementType();
  return checkInferredTensor(ctx, operand.shape(), element);
}


bool uniqueDims(std::span<const int64_t> dims) {
  std::unordered_set<int64_t> seen;
  for (int64_t d : dims)
    if (!seen.insert(d).second)
      return false;
  return true;
}

// ODS: `ConfinedAttr<I64Attr, [IntPositive]>` group counts.
bool convolutionEntryAttrs(const OpContext& ctx) {
  for (std::string_view name : {"feature_group_count", "batch_group_count"}) {
    std::optional<int64_t> count = ctx.intAttr(name);
    if (count && *count <= 0)
      return ctx.opError("attribute '" + std::string(name) +
                         "' failed to satisfy constraint: 64-bit signless integer attribute "
                         "whose value is positive");
  }
  return true;
}

// `isSpatialDimensionsValid` and `verifyConvolutionAttributes`.
bool checkConvolutionDims(const OpContext& ctx, const ir::stablehlo::ConvDimensionNumbers& dn,
                          std::span<const int64_t> lhs, std::span<const int64_t> rhs,
                          int64_t featureGroups, int64_t batchGroups) {
  size_t spatial = dn.inputSpatial.size();
  if (spatial != dn.kernelSpatial.size() || spatial != dn.outputSpatial.size())
    return ctx.error("expects the same size for input, kernel and output spatial-dimensions, but "
                     "got " +
                     std::to_string(spatial) + ", " + std::to_string(dn.kernelSpatial.size()) +
                     ", and " + std::to_string(dn.outputSpatial.size()) + " resp.");
  std::vector<int64_t> input{dn.inputBatch, dn.inputFeature};
  input.insert(input.end(), dn.inputSpatial.begin(), dn.inputSpatial.end());
  std::vector<int64_t> kernel{dn.kernelInputFeature, dn.kernelOutputFeature};
  kernel.insert(kernel.end(), dn.kernelSpatial.begin(), dn.kernelSpatial.end());
  std::vector<int64_t> output{dn.outputBatch, dn.outputFeature};
  output.insert(output.end(), dn.outputSpatial.begin(), dn.outputSpatial.end());
  int64_t rank = static_cast<int64_t>(lhs.size());
  for (const auto* dims : {&input, &kernel, &output})
    for (int64_t d : *dims)
      if (d < 0 || d >= rank)
        return ctx.error("expects input, kernel, and output dimension-numbers to be in-range [0, " +
                         std::to_string(rank) + ").");
  for (auto [dims, name] : {std::pair{&input, "input"}, std::pair{&kernel, "kernel"},
                            std::pair{&output, "output"}})
    if (!uniqueDims(*dims))
      return ctx.error("expects " + std::string(name) + " dimension-numbers to be unique, got {" +
                       joinInts(*dims) + "}.");
  if (batchGroups > 1 && featureGroups > 1)
    return ctx.error("expects batch_group_count and feature_group_count not to be both greater "
                     "than 1. Got " +
                     std::to_string(batchGroups) + " and " + std::to_string(featureGroups) +
                     " resp.");
  int64_t inputFeatures = lhs[dn.inputFeature], inputBatch = lhs[dn.inputBatch];
  int64_t kernelIn = rhs[dn.kernelInputFeature];
  int64_t kernelOut = rhs[dn.kernelOutputFeature];
  if (isStaticDim(inputBatch) && inputBatch % batchGroups != 0)
    return ctx.error("expects input batch dimension (" + std::to_string(inputBatch) +
                     ") to be divisible by batch_group_count. Got batch_group_count = " +
                     std::to_string(batchGroups) + ".");
  if (isStaticDim(inputFeatures)) {
    if (inputFeatures % featureGroups != 0)
      return ctx.error("expects input feature dimension (" + std::to_string(inputFeatures) +
                       ") to be a multiple of feature_group_count. Got feature_group_count = " +
                       std::to_string(featureGroups) + ".");
    if (isStaticDim(kernelIn) && inputFeatures / featureGroups != kernelIn)
      return ctx.error("expects input feature dimension (" + std::to_string(inputFeatures) +
                       ") / feature_group_count = kernel input feature dimension (" +
                       std::to_string(kernelIn) + "). Got feature_group_count = " +
                       std::to_string(featureGroups) + ".");
  }
  if (isStaticDim(kernelOut)) {
    if (kernelOut % batchGroups != 0)
      return ctx.error("expects output feature dimension size (" + std::to_string(kernelOut) +
                       ") to be a multiple of batch_group_count. Got batch_group_count = " +
                       std::to_string(batchGroups) + ".");
    if (kernelOut % featureGroups != 0)
      return ctx.error("expects kernel output feature dimension (" + std::to_string(kernelOut) +
                       ") to be divisible by feature_group_count. For feature_group_count = " +
                       std::to_string(featureGroups) + ".");
  }
  const auto* config = ctx.op.attr("precision_config").as<ir::ArrayAttr>();
  if (config && config->elements.size() > 2)
    return ctx.error("expects precision config to be empty or have <= 2 elements, got " +
                     std::to_string(config->elements.size()));
  return true;
}

// The operand and result shapes of a convolution (plain or quantized tensors).
struct ConvShapes {
  ir::Type lhsType, rhsType, resultType;
  std::vector<int64_t> lhs, rhs, result;
};

std::optional<ConvShapes> convShapesOf(const OpContext& ctx, unsigned operands) {
  if (ctx.op.numOperands() != operands || ctx.op.numResults() != 1)
    return std::nullopt;
  ConvShapes c{ctx.operandType(0), ctx.operandType(1), ctx.resultType(0), {}, {}, {}};
  std::optional<std::vector<int64_t>> lhs = shapeOf(c.lhsType), rhs = shapeOf(c.rhsType),
                                      result = shapeOf(c.resultType);
  if (!lhs || !rhs || !result)
    return std::nullopt;
  c.lhs = std::move(*lhs);
  c.rhs = std::move(*rhs);
  c.result = std::move(*result);
  return c;
}

// `inferConvolutionOp` up to the padding (shared with `inferDynamicConvOp`): ranks, element
// types, dimension numbers and group counts.
bool checkConvolutionOperands(const OpContext& ctx, const ir::stablehlo::ConvDimensionNumbers& dn,
                              const ConvShapes& c) {
  int64_t rank = static_cast<int64_t>(c.lhs.size());
  if (rank < 2)
    return ctx.error("expects convolution arguments to have >= 2 dimensions. Got: " +
                     quoted(c.lhsType) + " and " + quoted(c.rhsType) + ".");
  if (rank != static_cast<int64_t>(c.rhs.size()))
    return ctx.error("expects convolution arguments to have same number of dimensions. Got: " +
                     quoted(c.lhsType) + " and " + quoted(c.rhsType) + ".");
  ir::Type pair[] = {c.lhsType, c.rhsType};
  if (!anyQuantized(pair) && isTensor(c.lhsType) && isTensor(c.rhsType) &&
      c.lhsType.elementType() != c.rhsType.elementType())
    return ctx.error("expects lhs and rhs to have compatible element type. Got: '" +
                     std::string(ir::elementTypeName(c.lhsType.elementType())) + "' and '" +
                     std::string(ir::elementTypeName(c.rhsType.elementType())) + "'");
  int64_t featureGroups = ctx.intAttr("feature_group_count").value_or(1);
  int64_t batchGroups = ctx.intAttr("batch_group_count").value_or(1);
  if (!checkConvolutionDims(ctx, dn, c.lhs, c.rhs, featureGroups, batchGroups))
    return false;
  if (rank != static_cast<int64_t>(dn.inputSpatial.size() + 2))
    return ctx.error("expects convolution arguments to have " +
                     std::to_string(dn.inputSpatial.size() + 2) +
                     " dimensions. Got: " + std::to_string(rank));
  return true;
}

// The rest of `inferConvolutionOp`: the window over the padded input gives the result shape.
std::optional<std::vector<int64_t>>
inferConvolutionShape(const OpContext& ctx, const ir::stablehlo::ConvDimensionNumbers& dn,
                      const ConvShapes& c, const std::vector<std::pair<int64_t, int64_t>>& pad) {
  std::vector<int64_t> windowDims;
  for (int64_t d : dn.kernelSpatial)
    windowDims.push_back(c.rhs[d]);
  std::optional<std::vector<WindowDim>> window =
      windowOf(ctx, windowDims, ctx.intListOrEmpty("window_strides"), pad,
               ctx.intListOrEmpty("lhs_dilation"), ctx.intListOrEmpty("rhs_dilation"),
               ctx.intListOrEmpty("window_reversal").size());
  if (!window)
    return std::nullopt;
  std::vector<int64_t> spatial;
  for (int64_t d : dn.inputSpatial)
    spatial.push_back(c.lhs[d]);
  std::vector<int64_t> windowShape = windowOutputShape(spatial, *window);
  std::vector<int64_t> shape(c.lhs.size(), ir::kDynamicSize);
  for (size_t i = 0; i < windowShape.size(); ++i)
    shape[dn.outputSpatial[i]] = windowShape[i];
  int64_t inputBatch = c.lhs[dn.inputBatch];
  int64_t batchGroups = ctx.intAttr("batch_group_count").value_or(1);
  shape[dn.outputBatch] = isStaticDim(inputBatch) ? inputBatch / batchGroups : ir::kDynamicSize;
  shape[dn.outputFeature] = c.rhs[dn.kernelOutputFeature];
  return shape;
}

bool checkConvolutionQuant(const OpContext& ctx, const ir::stablehlo::ConvDimensionNumbers& dn,
                           const ConvShapes& c) {
  ir::Type types[] = {c.lhsType, c.rhsType, c.resultType};
  return !anyQuantized(types) ||
         checkConvolutionQuantization(ctx, c.lhsType, c.rhsType, c.resultType,
                                      dn.kernelOutputFeature, dn.outputFeature);
}

// `ConvolutionOp::verify` (`verifyConvolutionOp`, which runs `inferConvolutionOp`).
bool verifyConvolution(const OpContext& ctx) {
  if (!convolutionEntryAttrs(ctx))
    return false;
  std::optional<ConvShapes> c = convShapesOf(ctx, 2);
  std::optional<ir::stablehlo::ConvDimensionNumbers> dn =
      ir::stablehlo::convDimensionNumbers(ctx.op);
  if (!c || !dn)
    return true;
  if (!checkConvolutionOperands(ctx, *dn, *c))
    return false;
  std::optional<std::vector<std::pair<int64_t, int64_t>>> pad = paddingOf(ctx);
  if (!pad)
    return false;
  std::optional<std::vector<int64_t>> shape = inferConvolutionShape(ctx, *dn, *c, *pad);
  if (!shape)
    return false;
  if (!compatibleShapes(*shape, c->result))
    return ctx.error("inferred shape '" + dimsString(*shape) +
                     "' is incompatible with return type of operation " + quoted(c->resultType));
  return checkConvolutionQuant(ctx, *dn, *c);
}

// `DynamicConvOp::verify` (`verifyDynamicConvOp`): `inferDynamicConvOp`, whose padding is the
// third operand (a window is inferred only when it is a constant; the result shape is not
// compared), then the quantization rules.
bool verifyDynamicConv(const OpContext& ctx) {
  if (!convolutionEntryAttrs(ctx))
    return false;
  std::optional<ConvShapes> c = convShapesOf(ctx, 3);
  std::optional<ir::stablehlo::ConvDimensionNumbers> dn =
      ir::stablehlo::convDimensionNumbers(ctx.op);
  if (!c || !dn || !isTensor(ctx.operandType(2)))
    return true;
  if (!checkConvolutionOperands(ctx, *dn, *c))
    return false;
  std::span<const int64_t> padShape = ctx.operandType(2).shape();
  int64_t rank = static_cast<int64_t>(c->lhs.size());
  if (padShape.size() != 2)
    return ctx.error("expects padding to be of rank 2 but got " + std::to_string(padShape.size()));
  if (!isStaticDim(padShape[0]) || !isStaticDim(padShape[1]))
    return true; // ODS's static padding type, not modelled
  if (padShape[0] != rank - 2 || padShape[1] != 2)
    return ctx.error("expects padding to be of shape [" + std::to_string(rank - 2) +
                     ", 2], but got [" + std::to_string(padShape[0]) + ", " +
                     std::to_string(padShape[1]) + "]");
  if (std::optional<std::vector<int64_t>> padding = constantInts(ctx.op.operand(2))) {
    std::vector<std::pair<int64_t, int64_t>> pad;
    for (size_t i = 0; i + 1 < padding->size(); i += 2)
      pad.emplace_back((*padding)[i], (*padding)[i + 1]);
    if (!inferConvolutionShape(ctx, *dn, *c, pad))
      return false;
  }
  return checkConvolutionQuant(ctx, *dn, *c);
}

} // namespace

void addWindowRules(RuleTable& table) {
  table.emplace("stablehlo.reduce_window", OpRules{&reduceWindowEntry, &reduceWindowInfer});
  table.emplace("stablehlo.select_and_scatter",
                OpRules{&selectAndScatterEntry, &selectAndScatterInfer});
  table.emplace("stablehlo.convolution", OpRules{&verifyConvolution, nullptr});
  table.emplace("stablehlo.dynamic_conv", OpRules{&verifyDynamicConv, nullptr});
}

} // namespace shardscope::verify::detail
