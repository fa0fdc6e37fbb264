// Random numbers, host and channel I/O, tokens and custom calls: `rng` (TypeInference.cpp
// `inferRngOp` and ODS's `AllElementTypesMatch<["a", "b", "result"]>`), `infeed`
// (`verifyInfeedOp`), `recv` (`verifyRecvOp`), `send` (`inferSendOp`), `outfeed` and `after_all`
// (their inferred token result) and `custom_call` (`CustomCallOp::verify`: operand and result
// layouts, `output_operand_aliases`).

#include "core/verify/detail/op_context.h"

#include "core/ir/attribute.h"
#include "core/ir/stablehlo_attrs.h"

#include <algorithm>
#include <numeric>

namespace shardscope::verify::detail {

namespace {

bool rngEntry(const OpContext& ctx) {
  if (ctx.op.numOperands() != 3 || ctx.op.numResults() != 1)
    return true;
  ir::Type a = ctx.operandType(0), b = ctx.operandType(1), result = ctx.resultType(0);
  if (isTensor(a) && isTensor(b) && isTensor(result) &&
      (a.elementType() != b.elementType() || a.elementType() != result.elementType()))
    return ctx.opError("failed to verify that all of {a, b, result} have same element type");
  return true;
}

bool rngInfer(const OpContext& ctx) {
  if (ctx.op.numOperands() != 3 || ctx.op.numResults() != 1 || !allTensors(ctx.op))
    return true;
  ir::Type a = ctx.operandType(0), b = ctx.operandType(1), shape = ctx.operandType(2);
  if (ir::stablehlo::enumCase(ctx.op, "rng_distribution") == "NORMAL" &&
      (!ir::isFloatElement(a.elementType()) || !ir::isFloatElement(b.elementType())))
    return ctx.error("mu and sigma must be floats");
  std::vector<int64_t> dims;
  if (std::optional<std::vector<int64_t>> constant = constantInts(ctx.op.operand(2))) {
    dims = *constant;
  } else {
    if (shape.rank() != 1 || !isStaticDim(shape.shape()[0]))
      return true; // ODS requires a static 1-D shape operand; not modelled
    dims.assign(static_cast<size_t>(shape.shape()[0]), ir::kDynamicSize);
  }
  return checkInferredTensor(ctx, dims, b.elementType());
}

bool verifyInfeed(const OpContext& ctx) {
  std::vector<ir::Type> results;
  for (const auto& r : ctx.op.results())
    results.push_back(r->type());
  if (results.empty())
    return ctx.error("result is expected to be at least of size 1, but got 0");
  for (size_t i = 0; i + 1 < results.size(); ++i)
    if (!results[i].isTensor())
      return ctx.error("all elements of result types, except the last element, are expected to "
                       "be of tensor type, but got " +
                       quoted(results[i]));
  if (!results.back().isToken())
    return ctx.error("last element of result types is expected to be of token type, but got " +
                     quoted(results.back()));
  ir::Attribute layout = ctx.op.attr("layout");
  if (!layout)
    return true;
  const auto* array = layout.as<ir::ArrayAttr>();
  if (!array)
    return ctx.error("layout-attribute expected to be of array-type.");
  if (array->elements.size() != results.size() - 1)
    return ctx.error("layout-attribute size must be " + std::to_string(results.size() - 1) +
                     " (which is the number of op-results - 1 (for token result)), but got " +
                     std::to_string(array->elements.size()));
  for (const ir::Attribute& child : array->elements) {
    const auto* childArray = child.as<ir::ArrayAttr>();
    if (!childArray)
      return ctx.error("layout-attribute expected to have elements of type array, but got " +
                       child.str());
    for (const ir::Attribute& leaf : childArray->elements)
      if (!leaf.as<ir::IntegerAttr>())
        return ctx.error(
            "layout-attribute's leaf elements are expected to be of type integer, but got " +
            leaf.str());
  }
  return true;
}

// The `type` of `channel_handle = #stablehlo.channel_handle<handle = H, type = T>`; 0 when
// absent or unreadable.
int64_t channelType(const ir::Operation& op) {
  const auto* opaque = op.attr("channel_handle").as<ir::OpaqueAttr>();
  if (!opaque)
    return 0;
  auto fields = ir::stablehlo::parseStablehloStruct(opaque->text, "channel_handle");
  if (!fields)
    return 0;
  auto it = fields->find("type");
  return it != fields->end() && !it->second.empty() ? it->second[0] : 0;
}

constexpr int64_t kDeviceToDevice = 1;
constexpr int64_t kDeviceToHost = 2;
constexpr int64_t kHostToDevice = 3;

bool verifyRecv(const OpContext& ctx) {
  if (!ctx.op.attr("channel_handle"))
    return true; // ODS requires it; not modelled
  bool hostTransfer = ir::stablehlo::boolAttr(ctx.op, "is_host_transfer").value_or(false);
  int64_t type = channelType(ctx.op);
  if (!hostTransfer && type != kDeviceToDevice)
    return ctx.error("channel_type should be DEVICE_TO_DEVICE when is_host_transfer is false");
  if (hostTransfer && type != kHostToDevice)
    return ctx.error("channel_type should be HOST_TO_DEVICE when is_host_transfer is true");
  if (ctx.op.numResults() == 0)
    return ctx.error("result is expected to be at least of size 1, but got 0");
  for (unsigned i = 0; i + 1 < ctx.op.numResults(); ++i)
    if (!ctx.resultType(i).isTensor())
      return ctx.error("everything but the last element of result types is expected to be of "
                       "tensor type, but got " +
                       quoted(ctx.resultType(i)));
  ir::Type last = ctx.resultType(ctx.op.numResults() - 1);
  if (!last.isToken())
    return ctx.error("last element of result types is expected to be of token type, but got " +
                     quoted(last));
  return true;
}

// The ops whose inferred result is one token.
bool checkTokenResult(const OpContext& ctx) {
  return checkInferredTypes(ctx, {ir::Type::token()});
}

bool sendInfer(const OpContext& ctx) {
  if (!ctx.op.attr("channel_handle"))
    return true;
  bool hostTransfer = ir::stablehlo::boolAttr(ctx.op, "is_host_transfer").value_or(false);
  int64_t type = channelType(ctx.op);
  if (!hostTransfer && type != kDeviceToDevice)
    return ctx.error("channel_type should be DEVICE_TO_DEVICE when is_host_transfer is false");
  if (hostTransfer && type != kDeviceToHost)
    return ctx.error("channel_type should be DEVICE_TO_HOST when is_host_transfer is true");
  return checkTokenResult(ctx);
}

// The integers of one layout entry (`dense<[1, 0]> : tensor<2xindex>`); nothing when it is not a
// dense integer attribute.
std::optional<std::vector<int64_t>> layoutInts(const ir::Attribute& attr) {
  const auto* dense = attr.as<ir::DenseElementsAttr>();
  if (!dense || !dense->type.isTensor() || ir::isFloatElement(dense->type.elementType()))
    return std::nullopt;
  std::vector<int64_t> ints;
  for (int64_t i = 0; i < dense->numElements(); ++i)
    ints.push_back(dense->intAt(dense->isSplat ? 0 : i));
  return ints;
}

bool checkLayouts(const OpContext& ctx, std::span<const ir::Type> types,
                  const ir::ArrayAttr& layouts, const std::string& valueName) {
  if (types.size() != layouts.elements.size())
    return ctx.opError("Number of " + valueName + "s must match the number of " + valueName +
                       " layouts, " + std::to_string(types.size()) +
                       " != " + std::to_string(layouts.elements.size()));
  for (size_t index = 0; index < types.size(); ++index) {
    ir::Type type = types[index];
    const ir::Attribute& layoutAttr = layouts.elements[index];
    std::optional<std::vector<int64_t>> layout = layoutInts(layoutAttr);
    if (!layout)
      continue; // not a dense integer layout: ODS rejects it; not modelled
    if (type.kind() == ir::Type::Kind::Tuple)
      return ctx.opError("Tuple types are not fully supported with layout constraints yet");
    if (!type.isTensor()) {
      if (type.kind() == ir::Type::Kind::Opaque)
        continue; // unranked or foreign: nothing to check
      if (layout->empty())
        continue;
      return ctx.opError("Only tensor types can have non-empty layout: " + valueName + " #" +
                         std::to_string(index) + " of type " + quoted(type) + " has layout " +
                         layoutAttr.str());
    }
    std::vector<int64_t> range(static_cast<size_t>(type.rank()));
    std::iota(range.begin(), range.end(), int64_t{0});
    if (static_cast<int64_t>(layout->size()) != type.rank() ||
        !std::is_permutation(range.begin(), range.end(), layout->begin()))
      return ctx.opError("incorrect layout " + layoutAttr.str() + " for type " + quoted(type) +
                         ", layout must be a permutation of [0, " + std::to_string(type.rank()) +
                         ")");
  }
  return true;
}

bool checkCustomCallLayouts(const OpContext& ctx) {
  ir::Attribute operandLayouts = ctx.op.attr("operand_layouts");
  ir::Attribute resultLayouts = ctx.op.attr("result_layouts");
  if (!operandLayouts && !resultLayouts)
    return true;
  if (!operandLayouts != !resultLayouts)
    return ctx.opError(
        "Layout attributes should be specified for either both operands and results or none.");
  const auto* operands = operandLayouts.as<ir::ArrayAttr>();
  const auto* results = resultLayouts.as<ir::ArrayAttr>();
  if (!operands || !results)
    return true;
  std::vector<ir::Type> operandTypes = ir::operandTypes(ctx.op);
  std::vector<ir::Type> resultTypes;
  // A single tuple result: the layouts are those of its elements.
  if (ctx.op.numResults() == 1 && ctx.resultType(0).kind() == ir::Type::Kind::Tuple) {
    std::span<const ir::Type> elements = ctx.resultType(0).elements();
    resultTypes.assign(elements.begin(), elements.end());
  } else {
    resultTypes = ir::resultTypes(ctx.op);
  }
  return checkLayouts(ctx, operandTypes, *operands, "operand") &&
         checkLayouts(ctx, resultTypes, *results, "result");
}

// Follows `indices` into nested tuples of `type`; nothing when an index leaves the tuples.
std::optional<ir::Type> tuplePart(ir::Type type, std::span<const int64_t> indices) {
  for (int64_t i : indices) {
    if (type.kind() != ir::Type::Kind::Tuple || i < 0 ||
        i >= static_cast<int64_t>(type.elements().size()))
      return std::nullopt;
    type = type.elements()[static_cast<size_t>(i)];
  }
  return type;
}

bool hasOpaquePart(ir::Type type) {
  if (type.kind() == ir::Type::Kind::Opaque)
    return true;
  if (type.kind() != ir::Type::Kind::Tuple)
    return false;
  return std::ranges::any_of(type.elements(), [](ir::Type t) { return hasOpaquePart(t); });
}

// `CustomCallOp::verify`: each `#stablehlo.output_operand_alias` names an operand part and an
// output part (the results, as a tuple when there are several) of the same type.
bool checkOutputOperandAliases(const OpContext& ctx) {
  const auto* aliases = ctx.op.attr("output_operand_aliases").as<ir::ArrayAttr>();
  if (!aliases || ctx.op.numResults() == 0)
    return true;
  std::vector<ir::Type> resultTypes = ir::resultTypes(ctx.op);
  ir::Type output = resultTypes.size() > 1 ? ir::Type::tuple(resultTypes) : resultTypes[0];
  for (const ir::Attribute& attr : aliases->elements) {
    const auto* text = attr.as<ir::OpaqueAttr>();
    auto fields = text ? ir::stablehlo::parseStablehloStruct(text->text, "output_operand_alias")
                       : std::nullopt;
    if (!fields)
      continue; // not an alias attribute: ODS rejects it; not modelled
    auto field = [&](std::string_view name) {
      auto it = fields->find(name);
      return it == fields->end() ? std::vector<int64_t>{} : it->second;
    };
    std::vector<int64_t> operandIndex = field("operand_index");
    if (operandIndex.size() != 1)
      continue;
    int64_t index = operandIndex[0];
    if (index < 0 || index >= static_cast<int64_t>(ctx.op.numOperands()))
      return ctx.opError("expects operandIndex in the output_operand_alias attribute to be in "
                         "range [0, " +
                         std::to_string(ctx.op.numOperands()) + "); got: " + std::to_string(index) +
                         ".");
    std::optional<ir::Type> operandPart =
        tuplePart(ctx.operandType(static_cast<unsigned>(index)), field("operand_tuple_indices"));
    if (!operandPart)
      return ctx.opError(
          "operand_tuple_indices in the output_operand_alias attribute out of bounds");
    std::optional<ir::Type> outputPart = tuplePart(output, field("output_tuple_indices"));
    if (!outputPart)
      return ctx.opError(
          "output_tuple_indices in the output_operand_alias attribute out of bounds");
    // Opaque types are compared as text, which may spell one type two ways: not compared.
    if (*operandPart != *outputPart && !hasOpaquePart(*operandPart) && !hasOpaquePart(*outputPart))
      return ctx.opError("shapes mismatch in the output_operand_alias attribute: operand part "
                         "has type " +
                         quoted(*operandPart) + " and output part has type " + quoted(*outputPart));
  }
  return true;
}

bool verifyCustomCall(const OpContext& ctx) {
  return checkCustomCallLayouts(ctx) && checkOutputOperandAliases(ctx);
}

} // namespace

void addIoRules(RuleTable& table) {
  table.emplace("stablehlo.rng", OpRules{&rngEntry, &rngInfer});
  table.emplace("stablehlo.infeed", OpRules{&verifyInfeed, nullptr});
  table.emplace("stablehlo.recv", OpRules{&verifyRecv, nullptr});
  table.emplace("stablehlo.send", OpRules{nullptr, &sendInfer});
  table.emplace("stablehlo.outfeed", OpRules{nullptr, &checkTokenResult});
  table.emplace("stablehlo.after_all", OpRules{nullptr, &checkTokenResult});
  table.emplace("stablehlo.custom_call", OpRules{&verifyCustomCall, nullptr});
}

} // namespace shardscope::verify::detail
