// Random numbers, host and channel I/O, tokens and custom calls: `rng` (TypeInference.cpp
// `inferRngOp` and ODS's `AllElementTypesMatch<["a", "b", "result"]>`), `infeed`
// (`verifyInfeedOp`), `recv` (`verifyRecvOp`), `send` (`inferSendOp`), `outfeed` and `after_all`
// (their inferred token result) and `custom_call` (`CustomCallOp::verify`: operand and result
// layouts, `output_operand_aliases`).

#include "core/verify/detail/op_context.h"

#include "core/ir/attribute.h"
#include "core/ir/stablehlo_attrs.h"

#include <algorithm>
#include <set>
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
    // Opaque types are compared as text, which may spell one type two ways: two opaque parts
    // are not compared (an opaque part and a plain one always differ).
    if (*operandPart != *outputPart && !(hasOpaquePart(*operandPart) && hasOpaquePart(*outputPart)))
      return ctx.opError("shapes mismatch in the output_operand_alias attribute: operand part "
                         "has type " +
                         quoted(*operandPart) + " and output part has type " + quoted(*outputPart));
  }
  return true;
}

// A typed-FFI call (api_version 4) takes its backend_config as a dictionary, the others as a
// string (CustomCallOp::verify).
bool checkBackendConfig(const OpContext& ctx) {
  ir::Attribute config = ctx.op.attr("backend_config");
  if (!config)
    return true;
  std::optional<int64_t> version = ctx.intAttr("api_version");
  static constexpr std::string_view kVersions[] = {
      "API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
      "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"};
  const int64_t v = version.value_or(1); // ODS's default: API_VERSION_ORIGINAL
  const std::string name = v >= 0 && v < 5 ? std::string(kVersions[v]) : std::to_string(v);
  if (v == 4 && config.kind() != ir::Attribute::Kind::Dictionary)
    return ctx.opError("backend_config for api_version " + name +
                       " must be a dictionary attribute.");
  if (v != 4 && config.kind() != ir::Attribute::Kind::String)
    return ctx.opError("backend_config for api_version " + name + " must be a string attribute.");
  return true;
}

bool isMemref(ir::Type type) {
  return type.kind() == ir::Type::Kind::Opaque && type.opaqueText().starts_with("memref<");
}

// A tensor and a memref of one shape and element type: `tensor<2xf32>` and `memref<2xf32>`
// (memrefs are kept as text, so layouts and memory spaces make them differ).
bool sameShapeAndElement(ir::Type tensor, ir::Type memref) {
  std::string_view text = memref.opaqueText();
  return tensor.isTensor() && text.substr(6) == std::string_view(tensor.str()).substr(6);
}

std::string indicesText(std::span<const int64_t> indices) {
  std::string out = "[";
  for (size_t i = 0; i < indices.size(); ++i)
    out += (i ? ", " : "") + std::to_string(indices[i]);
  return out + "]";
}

// The buffer custom calls (`CreateBuffer`, `Pin`, `Unpin`) and the buffer rule of the others:
// every buffer result is aliased to an operand once, every buffer operand at most once
// (CustomCallOp::verifyKnownCustomCalls).
bool checkBufferCustomCalls(const OpContext& ctx) {
  const std::string target = ir::stablehlo::stringAttr(ctx.op, "call_target_name");
  const unsigned inputs = ctx.op.numOperands(), outputs = ctx.op.numResults();
  if (target == "CreateBuffer") {
    if (inputs != 0)
      return ctx.opError("CreateBuffer custom_call shouldn't have any inputs");
    if (outputs != 1)
      return ctx.opError("CreateBuffer custom_call should have one result");
    if (!isMemref(ctx.resultType(0)))
      return ctx.opError("CreateBuffer custom_call should have a memref result");
    return true;
  }
  if (target == "Pin" || target == "Unpin") {
    const bool pin = target == "Pin";
    const std::string what = target + " custom_call should have ";
    if (inputs != 1)
      return ctx.opError(what + "one input");
    ir::Type input = ctx.operandType(0);
    if (pin ? !input.isTensor() : !isMemref(input))
      return ctx.opError(what + (pin ? "a tensor input" : "a memref input"));
    if (outputs != 1)
      return ctx.opError(what + "one output");
    ir::Type output = ctx.resultType(0);
    if (pin ? !isMemref(output) : !output.isTensor())
      return ctx.opError(what + (pin ? "a memref output" : "a tensor output"));
    if (!(pin ? sameShapeAndElement(input, output) : sameShapeAndElement(output, input)))
      return ctx.opError(what + "compatible input and output types");
    return true;
  }
  const auto* aliases = ctx.op.attr("output_operand_aliases").as<ir::ArrayAttr>();
  std::set<std::pair<int64_t, std::vector<int64_t>>> operandParts;
  std::set<std::vector<int64_t>> outputParts;
  for (size_t a = 0; aliases && a < aliases->elements.size(); ++a) {
    const auto* text = aliases->elements[a].as<ir::OpaqueAttr>();
    auto fields = text ? ir::stablehlo::parseStablehloStruct(text->text, "output_operand_alias")
                       : std::nullopt;
    if (!fields || !fields->contains("operand_index"))
      continue;
    auto field = [&](std::string_view name) {
      auto it = fields->find(name);
      return it == fields->end() ? std::vector<int64_t>{} : it->second;
    };
    const int64_t index = field("operand_index").front();
    const std::vector<int64_t> operandIndices = field("operand_tuple_indices");
    const std::vector<int64_t> outputIndices = field("output_tuple_indices");
    std::optional<ir::Type> part = index >= 0 && index < static_cast<int64_t>(inputs)
                                       ? tuplePart(ctx.operandType(static_cast<unsigned>(index)),
                                                   operandIndices)
                                       : std::nullopt;
    if (!part || !isMemref(*part))
      continue;
    if (!outputParts.insert(outputIndices).second)
      return ctx.opError("buffer output " + indicesText(outputIndices) +
                         " is used in output_operand_alias more than once");
    if (!operandParts.insert({index, operandIndices}).second)
      return ctx.opError("buffer operand " + std::to_string(index) + indicesText(operandIndices) +
                         " is used in output_operand_alias more than once");
  }
  // Every buffer leaf of the results (a tuple of them when there are several) is aliased.
  std::vector<ir::Type> results = ir::resultTypes(ctx.op);
  if (results.empty())
    return true;
  ir::Type all = results.size() == 1 ? results[0] : ir::Type::tuple(results);
  std::vector<int64_t> path;
  std::optional<std::string> unaliased;
  auto walk = [&](auto&& self, ir::Type type) -> void {
    if (unaliased)
      return;
    if (type.kind() == ir::Type::Kind::Tuple) {
      for (size_t i = 0; i < type.elements().size(); ++i) {
        path.push_back(static_cast<int64_t>(i));
        self(self, type.elements()[i]);
        path.pop_back();
      }
    } else if (isMemref(type) && !outputParts.contains(path)) {
      unaliased = indicesText(path);
    }
  };
  walk(walk, all);
  if (unaliased)
    return ctx.opError("buffer output " + *unaliased + " is not used in output_operand_alias");
  return true;
}

bool verifyCustomCall(const OpContext& ctx) {
  return checkCustomCallLayouts(ctx) && checkOutputOperandAliases(ctx) &&
         checkBackendConfig(ctx) && checkBufferCustomCalls(ctx);
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
