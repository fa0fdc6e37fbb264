// Op-specific verification of the sdy ops other than collectives: manual and named computations,
// sharding constraints and reshards, data-flow edges, propagation barriers.
#include "core/sharding/axis_refs.h"
#include "core/sharding/detail/verify_support.h"

#include <algorithm>

namespace shardscope::sharding::detail {

using ir::AxisRef;

namespace {

std::vector<ir::Type> typesOf(std::span<const std::unique_ptr<ir::Value>> values) {
  std::vector<ir::Type> types;
  for (const auto& v : values)
    types.push_back(v->type());
  return types;
}

std::vector<ir::Type> typesOf(std::span<ir::Value* const> values) {
  std::vector<ir::Type> types;
  for (const ir::Value* v : values)
    types.push_back(v->type());
  return types;
}

std::span<const ir::TensorSharding> shardingList(const ir::Operation& op, std::string_view name) {
  if (const auto* list = op.attr(name).as<ir::ShardingPerValueAttr>())
    return list->shardings;
  return {};
}

std::vector<ir::Type> bodyArgTypes(const ir::Operation& op) {
  if (op.numRegions() == 0 || op.region(0).empty())
    return {};
  return typesOf(op.region(0).front().arguments());
}

// --- sdy.manual_computation ----------------------------------------------------------------------

// Checks one side (operands or results) of a manual computation: the shardings themselves, the
// number of global and local values, manual axes before free axes, and that the local (region)
// type is the global type divided by the manual axes.
bool verifyManualComputationValues(const VerifyContext& ctx, const ir::Operation& op,
                                   std::span<const ir::Type> globalTypes,
                                   std::span<const ir::Type> localTypes,
                                   std::span<const ir::TensorSharding> shardings,
                                   const std::vector<std::string>& manualAxes,
                                   const std::string& kind) {
  if (globalTypes.empty() && localTypes.empty() && shardings.empty())
    return true;
  ErrorEmitter emit = opError(op, ctx.sink);
  if (!verifyShardingList(ctx, shardings, globalTypes, op, emit.extended(kind + " ")))
    return false;
  if (globalTypes.size() != localTypes.size())
    return emit("number of op " + kind + "s and region " + kind + "s must match. Op has " +
                std::to_string(globalTypes.size()) + " op " + kind + "s and " +
                std::to_string(localTypes.size()) + " region " + kind + "s");
  auto isManual = [&](const AxisRef& axis) {
    return std::find(manualAxes.begin(), manualAxes.end(), axis.name) != manualAxes.end();
  };
  for (size_t i = 0; i < globalTypes.size(); ++i) {
    const ir::TensorSharding& sharding = shardings[i];
    for (size_t dim = 0; dim < sharding.dims.size(); ++dim) {
      const std::vector<AxisRef>& axes = sharding.dims[dim].axes;
      auto firstFree = std::find_if_not(axes.begin(), axes.end(), isManual);
      auto lateManual = std::find_if(firstFree, axes.end(), isManual);
      if (lateManual != axes.end())
        return emit(kind + " sharding at index " + std::to_string(i) +
                    " must have all manual axes come before free axes in its dimension sharding "
                    "at index " +
                    std::to_string(dim) + ". Saw manual axis " + axisRefString(*lateManual) +
                    " after free axis " + axisRefString(*(lateManual - 1)));
    }
    ir::Type global = globalTypes[i];
    if (!global.isTensor())
      continue; // e.g. a token
    const ir::Mesh* mesh = ctx.meshOf(sharding);
    MeshView view(*mesh); // resolved by verifyShardingList
    std::vector<int64_t> localShape;
    std::span<const int64_t> shape = global.shape();
    for (size_t dim = 0; dim < shape.size(); ++dim) {
      if (shape[dim] == ir::kDynamicSize) {
        localShape.push_back(ir::kDynamicSize);
        continue;
      }
      int64_t manualSize = 1;
      for (const AxisRef& axis : sharding.dims[dim].axes)
        if (isManual(axis))
          manualSize *= view.sizeOf(axis);
      if (manualSize <= 0 || shape[dim] % manualSize != 0)
        return emit(kind + " dimension size " + std::to_string(shape[dim]) +
                    " is not divisible by the manual axes size " + std::to_string(manualSize));
      localShape.push_back(shape[dim] / manualSize);
    }
    ir::Type expected = ir::Type::tensor(localShape, global.elementType());
    if (expected != localTypes[i])
      return emit(kind + " shape, corresponding sharding, and region " + kind + " shape at index " +
                  std::to_string(i) + " must match. Expected local shape " + quotedType(expected) +
                  ", actual local shape " + quotedType(localTypes[i]));
  }
  return true;
}

// Shardy's `getCommonMesh`: the first mesh, replaced by a later one while it is the empty mesh;
// later empty meshes are skipped. Null when two non-empty meshes differ.
const ir::Mesh* commonMesh(const VerifyContext& ctx, std::span<const ir::TensorSharding> in,
                           std::span<const ir::TensorSharding> out) {
  const ir::Mesh* common = nullptr;
  for (std::span<const ir::TensorSharding> list : {in, out})
    for (const ir::TensorSharding& sharding : list) {
      const ir::Mesh* mesh = ctx.meshOf(sharding);
      if (!common || MeshView(*common).isEmpty()) {
        common = mesh;
        continue;
      }
      if (!mesh || MeshView(*mesh).isEmpty())
        continue;
      if (!(*common == *mesh))
        return nullptr;
    }
  return common;
}

// ManualComputationOp::verify: no manual axis is bound by an enclosing manual computation.
bool verifyManualComputationInvariants(const VerifyContext& ctx, const ir::Operation& op) {
  const auto* manualAttr = op.attr("manual_axes").as<ir::ManualAxesAttr>();
  if (!manualAttr)
    return true;
  std::vector<ManualAxisOwner> parents = parentManualAxes(op);
  for (const std::string& axis : manualAttr->axes)
    for (const ManualAxisOwner& owner : parents)
      if (owner.axis == axis)
        return opError(op, ctx.sink)(
            "operates on axis \"" + axis +
                "\" which is already bound by a parent sdy.manual_computation op",
            {{"parent bounding this axis as manual", owner.owner->loc()}});
  return true;
}

// ManualComputationOp::verifySymbolUses: operands, results, then the common mesh.
bool verifyManualComputationSymbolUses(const VerifyContext& ctx, const ir::Operation& op) {
  ErrorEmitter emit = opError(op, ctx.sink);
  const auto* manualAttr = op.attr("manual_axes").as<ir::ManualAxesAttr>();
  std::vector<std::string> manualAxes = manualAttr ? manualAttr->axes : std::vector<std::string>{};
  std::span<const ir::TensorSharding> in = shardingList(op, "in_shardings");
  std::span<const ir::TensorSharding> out = shardingList(op, "out_shardings");
  if (!verifyManualComputationValues(ctx, op, typesOf(op.operands()), bodyArgTypes(op), in,
                                     manualAxes, "operand") ||
      !verifyManualComputationValues(ctx, op, typesOf(op.results()), terminatorOperandTypes(op),
                                     out, manualAxes, "result"))
    return false;
  // No in/out shardings with a non-empty body is left to `-sdy-manual-axes-cleanup`.
  if (in.empty() && out.empty())
    return true;
  const ir::Mesh* mesh = commonMesh(ctx, in, out);
  if (!mesh && !manualAxes.empty())
    return emit("all in and out shardings must be bound to the same mesh or an empty mesh.");
  for (const std::string& axis : manualAxes)
    if (mesh && !MeshView(*mesh).hasAxis(axis))
      return emit("unknown manual axis: \"" + axis + "\"");
  return true;
}

// --- sdy.named_computation -----------------------------------------------------------------------

bool verifyInnerOuterTypes(const ErrorEmitter& emit, std::span<const ir::Type> inner,
                           std::span<const ir::Type> outer, const std::string& innerName,
                           const std::string& outerName) {
  if (inner.size() != outer.size())
    return emit("number of " + innerName + "s must match the number of " + outerName +
                "s: " + std::to_string(inner.size()) + " != " + std::to_string(outer.size()));
  for (size_t i = 0; i < inner.size(); ++i)
    if (inner[i] != outer[i])
      return emit("expected the type of the " + std::to_string(i) + "'th " + innerName +
                  " to match the type of the corresponding " + outerName + ": " +
                  quotedType(inner[i]) + " vs " + quotedType(outer[i]));
  return true;
}

// The result types are inferred from the terminator (InferTypeOpInterface), which MLIR checks
// in `verify()`.
bool verifyNamedComputationInvariants(const VerifyContext& ctx, const ir::Operation& op) {
  ErrorEmitter emit = opError(op, ctx.sink);
  std::vector<ir::Type> returned = terminatorOperandTypes(op);
  std::vector<ir::Type> results = typesOf(op.results());
  if (returned != results) {
    emit("inferred type(s) " + quotedTypes(returned) +
         " are incompatible with return type(s) of operation " + quotedTypes(results));
    return emit("failed to infer returned types");
  }
  return true;
}

// NamedComputationOp::verifySymbolUses.
bool verifyNamedComputationSymbolUses(const VerifyContext& ctx, const ir::Operation& op) {
  ErrorEmitter emit = opError(op, ctx.sink);
  // Shardy emits these two without the op prefix.
  ErrorEmitter plain(ctx.sink, op.loc());
  if (!verifyInnerOuterTypes(plain, bodyArgTypes(op), typesOf(op.operands()), "block argument",
                             "operand"))
    return false;
  if (op.hasAttr("in_shardings") &&
      !verifyShardingList(ctx, shardingList(op, "in_shardings"), typesOf(op.operands()), op,
                          emit.extended("in_shardings ")))
    return false;
  if (op.hasAttr("out_shardings") &&
      !verifyShardingList(ctx, shardingList(op, "out_shardings"), typesOf(op.results()), op,
                          emit.extended("out_shardings ")))
    return false;
  return true;
}

// --- sdy.sharding_constraint / sdy.reshard -------------------------------------------------------

// ShardingConstraintOp / ReshardOp::verifySymbolUses: the sharding, then the unreduced axes it
// changes w.r.t. its input's sharding (through barriers): new ones must be summed, dropping any is
// allowed.
bool verifyShardingConstraintLike(const VerifyContext& ctx, const ir::Operation& op) {
  const auto* sharding = op.attr("sharding").as<ir::ShardingAttr>();
  if (!sharding || op.numResults() != 1 || op.numOperands() != 1)
    return true;
  ErrorEmitter emit = opError(op, ctx.sink);
  if (!verifyShardingForOp(ctx, sharding->sharding, op.result(0)->type(), op, emit))
    return false;
  std::optional<ir::TensorSharding> storage;
  const ir::TensorSharding* source = shardingBypassingBarriers(*op.operand(0), storage);
  if (!source)
    return true;
  const ir::TensorSharding* operands[] = {source};
  const ir::TensorSharding* results[] = {&sharding->sharding};
  return verifyUnreducedAxesTransition(
      ctx, emit, {operands, results, std::string("sum"), reductionKindName(*source)});
}

// --- data-flow edges, barrier --------------------------------------------------------------------

bool hasStaticShapeOrIsNotTensor(ir::Type type) {
  if (isUnrankedTensor(type))
    return false;
  return !type.isTensor() || type.hasStaticShape();
}

bool verifyDataFlowEdge(const VerifyContext& ctx, const ir::Operation& op) {
  if (op.numResults() != 1 || op.numOperands() != 1)
    return true;
  ErrorEmitter emit = opError(op, ctx.sink);
  ir::Type type = op.result(0)->type();
  if (!hasStaticShapeOrIsNotTensor(type))
    return emit("expected sdy.data_flow_edge to have a static-shaped result. type: " +
                quotedType(type));
  const ir::Value* input = op.operand(0);
  if (input->uses().size() != 1)
    return emit("expected input of sdy.data_flow_edge to have a single user");
  if (const ir::Operation* def = input->definingOp(); def && def->dialect() == "sdy" &&
                                                      !def->is("sdy.named_computation") &&
                                                      !def->is("sdy.manual_computation"))
    return emit("expected input of sdy.data_flow_edge to not be defined by an SdyDialect op "
                "(other than an sdy.named_computation).",
                {{"sdy op defining the input of the sdy.data_flow_edge", def->loc()}});
  if (const auto* sharding = op.attr("sharding").as<ir::ShardingAttr>())
    return verifyShardingForOp(ctx, sharding->sharding, type, op, emit);
  return true;
}

bool verifyFuncDataFlowEdge(const VerifyContext& ctx, const ir::Operation& op) {
  if (op.numResults() != 1 || op.numOperands() != 1)
    return true;
  ErrorEmitter emit = opError(op, ctx.sink);
  ir::Type type = op.result(0)->type();
  if (!hasStaticShapeOrIsNotTensor(type))
    return emit("expected sdy.func_data_flow_edge to have a static-shaped result. type: " +
                quotedType(type));
  const ir::Value* input = op.operand(0);
  if (input->uses().size() != 1)
    return emit("expected operand of sdy.func_data_flow_edge to have a single user");
  if (input->isBlockArgument()) {
    const ir::Operation* owner = input->ownerBlock()->parentOp();
    if (!owner || !owner->is("func.func"))
      return emit("expected operand of sdy.func_data_flow_edge to be a block argument of a func "
                  "op.");
  } else if (!input->definingOp()->is("func.call")) {
    return emit("expected operand of sdy.func_data_flow_edge to be a result of call op.");
  }
  if (const auto* sharding = op.attr("sharding").as<ir::ShardingAttr>())
    return verifyShardingForOp(ctx, sharding->sharding, type, op, emit);
  return true;
}

bool verifyPropagationBarrier(const VerifyContext& ctx, const ir::Operation& op) {
  const auto* direction = op.attr("allowed_direction").as<ir::OpaqueAttr>();
  if (direction && direction->text == "BOTH")
    return opError(op, ctx.sink)("cannot specify `BOTH` as the direction. Not blocking "
                                 "propagation direction makes the op redundant.");
  return true;
}

// Returns true when `value` is defined inside `region` (directly or in a nested region).
bool isDefinedInside(const ir::Value& value, const ir::Region& region) {
  const ir::Block* block =
      value.isBlockArgument() ? value.ownerBlock() : value.definingOp()->parentBlock();
  while (block) {
    if (block->parentRegion() == &region)
      return true;
    const ir::Operation* parent = block->parentOp();
    block = parent ? parent->parentBlock() : nullptr;
  }
  return false;
}

bool verifyUsesInside(const VerifyContext& ctx, const ir::Operation& isolated,
                      const ir::Region& region, const ir::Block& block) {
  for (const auto& op : block.ops()) {
    for (const ir::Value* operand : op->operands())
      if (!isDefinedInside(*operand, region))
        return opError(*op,
                       ctx.sink)("using value defined outside the region",
                                 {{"required by region isolation constraints", isolated.loc()}});
    for (unsigned r = 0; r < op->numRegions(); ++r)
      for (const auto& nested : op->region(r).blocks())
        if (!verifyUsesInside(ctx, isolated, region, *nested))
          return false;
  }
  return true;
}

} // namespace

bool verifySdyOpInvariants(const VerifyContext& ctx, const ir::Operation& op) {
  if (op.is("sdy.manual_computation"))
    return verifyManualComputationInvariants(ctx, op);
  if (op.is("sdy.named_computation"))
    return verifyNamedComputationInvariants(ctx, op);
  if (op.is("sdy.propagation_barrier"))
    return verifyPropagationBarrier(ctx, op);
  return true;
}

bool verifySdyOpSymbolUses(const VerifyContext& ctx, const ir::Operation& op) {
  if (op.is("sdy.manual_computation"))
    return verifyManualComputationSymbolUses(ctx, op);
  if (op.is("sdy.named_computation"))
    return verifyNamedComputationSymbolUses(ctx, op);
  if (op.is("sdy.sharding_constraint") || op.is("sdy.reshard"))
    return verifyShardingConstraintLike(ctx, op);
  if (op.is("sdy.data_flow_edge"))
    return verifyDataFlowEdge(ctx, op);
  if (op.is("sdy.func_data_flow_edge"))
    return verifyFuncDataFlowEdge(ctx, op);
  return true;
}

bool verifyIsolation(const VerifyContext& ctx, const ir::Operation& op) {
  for (unsigned r = 0; r < op.numRegions(); ++r)
    for (const auto& block : op.region(r).blocks())
      if (!verifyUsesInside(ctx, op, op.region(r), *block))
        return false;
  return true;
}

} // namespace shardscope::sharding::detail
