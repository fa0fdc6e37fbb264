// Collectives: `all_reduce`, `all_gather`, `reduce_scatter`, `all_to_all`, `collective_permute`
// and `collective_broadcast` (TypeInference.cpp: `verifyReplicaGroups`, `verifyAllReduceOp`,
// `verifyAllGatherOp`, `verifyReduceScatterOp`, `inferAllToAllOp`, `verifyCollectivePermuteOp`,
// `verifyCollectiveBroadcastOp`; the ODS attribute constraints).

#include "core/verify/detail/op_context.h"

#include "core/ir/attribute.h"
#include "core/ir/stablehlo_attrs.h"

#include <unordered_set>

namespace shardscope::verify::detail {

namespace {

int64_t channelId(const OpContext& ctx) {
  const auto* handle = ctx.op.attr("channel_handle").as<ir::OpaqueAttr>();
  if (!handle)
    return 0;
  auto fields = ir::stablehlo::parseStablehloStruct(handle->text, "channel_handle");
  if (!fields)
    return 0;
  auto it = fields->find("handle");
  return it == fields->end() || it->second.empty() ? 0 : it->second.front();
}

bool useGlobalDeviceIds(const OpContext& ctx) { return ctx.op.hasAttr("use_global_device_ids"); }

bool checkNonNegative(const OpContext& ctx, std::string_view name, int64_t value,
                      std::string_view what = "non-negative") {
  bool ok = what == "positive" ? value > 0 : value >= 0;
  if (ok)
    return true;
  return ctx.opError("attribute '" + std::string(name) +
                     "' failed to satisfy constraint: 64-bit signless integer attribute whose "
                     "value is " +
                     std::string(what));
}

// `HLO_PairwiseSameOperandAndResultElementType`.
bool checkPairwiseElementTypes(const OpContext& ctx) {
  if (ctx.op.numOperands() != ctx.op.numResults())
    return ctx.opError("requires the same number of operands and results");
  for (unsigned i = 0; i < ctx.op.numOperands(); ++i)
    if (!sameElementType(ctx.operandType(i), ctx.resultType(i)))
      return ctx.opError("requires the same element type for operand and result at index " +
                         std::to_string(i));
  return true;
}

bool checkPositiveChannel(const OpContext& ctx) {
  int64_t channel = channelId(ctx);
  if (useGlobalDeviceIds(ctx) && channel <= 0)
    return ctx.error("channel_id must be positive when useGlobalDeviceIds is set but got: " +
                     std::to_string(channel));
  return true;
}

// The scalar type of `type`'s elements, as the reduction body's accumulator.
ir::Type scalarOf(ir::Type type) { return ir::Type::tensor({}, type.elementType()); }

// `InferTensorType`: each result has its operand's shape and the body's accumulator type.
bool allReduceInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op))
    return true;
  std::vector<ir::Type> acc = accumulatorTypes(ctx.op);
  std::vector<ir::Type> inferred;
  for (const ir::Value* operand : ctx.op.operands()) {
    ir::Type type = operand->type();
    if (!acc.empty() && isTensor(acc.front()))
      type = ir::Type::tensor(type.shape(), acc.front().elementType());
    inferred.push_back(type);
  }
  return checkInferredTypes(ctx, inferred);
}

bool verifyAllReduce(const OpContext& ctx) {
  if (!checkReplicaGroups(ctx, "replica_groups", /*allGroupsSameSize=*/false,
                          useGlobalDeviceIds(ctx), std::nullopt) ||
      !checkPositiveChannel(ctx))
    return false;
  if (!allTensors(ctx.op) || ctx.op.numRegions() != 1 || ctx.op.region(0).empty())
    return true;
  for (const ir::Value* operand : ctx.op.operands()) {
    ir::Type input = operand->type(), init = scalarOf(input);
    if (!checkReducerShape(ctx, ctx.op.region(0).front(), {&input, 1}, {&init, 1}, {}))
      return false;
  }
  return true;
}

// collective_reduce reduces each data operand to the root(s); with `has_dynamic_root` the last
// operand holds the root of each data operand (TypeInference.cpp verifyCollectiveReduceOp).
bool verifyCollectiveReduce(const OpContext& ctx) {
  if (!checkReplicaGroups(ctx, "replica_groups", /*allGroupsSameSize=*/false,
                          useGlobalDeviceIds(ctx), std::nullopt) ||
      !checkPositiveChannel(ctx))
    return false;
  const bool dynamicRoot = ctx.op.hasAttr("has_dynamic_root");
  const unsigned n = ctx.op.numOperands();
  if (!dynamicRoot && n == 0)
    return ctx.error("collective_reduce requires at least one data operand");
  if (dynamicRoot) {
    if (n < 2)
      return ctx.error("collective_reduce with has_dynamic_root=true requires at least two "
                       "operands (data + root)");
    ir::Type root = ctx.operandType(n - 1);
    if (!isTensor(root) || root.elementType() != ir::ElementType::I32 || root.rank() != 1)
      return ctx.error("last operand of collective_reduce with has_dynamic_root=true must be a "
                       "rank-1 i32 tensor, but got " + quoted(root));
    if (root.shape()[0] != static_cast<int64_t>(n - 1))
      return ctx.error("last operand of collective_reduce with has_dynamic_root=true must have "
                       "the same number of elements as data operands (" +
                       std::to_string(n - 1) + "), but got " + std::to_string(root.shape()[0]));
  }
  if (!allTensors(ctx.op) || ctx.op.numRegions() != 1 || ctx.op.region(0).empty())
    return true;
  for (unsigned i = 0; i < n - (dynamicRoot ? 1 : 0); ++i) {
    ir::Type input = ctx.operandType(i), init = scalarOf(input);
    if (!checkReducerShape(ctx, ctx.op.region(0).front(), {&input, 1}, {&init, 1}, {}))
      return false;
  }
  return true;
}

// Each data operand's shape with the body's accumulator element type (the root is no result).
bool collectiveReduceInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op))
    return true;
  const bool dynamicRoot = ctx.op.hasAttr("has_dynamic_root");
  std::vector<ir::Type> acc = accumulatorTypes(ctx.op);
  std::vector<ir::Type> inferred;
  for (unsigned i = 0; i + (dynamicRoot ? 1 : 0) < ctx.op.numOperands(); ++i) {
    ir::Type type = ctx.operandType(i);
    if (!acc.empty() && isTensor(acc.front()))
      type = ir::Type::tensor(type.shape(), acc.front().elementType());
    inferred.push_back(type);
  }
  return checkInferredTypes(ctx, inferred);
}

bool verifyAllGather(const OpContext& ctx) {
  std::optional<int64_t> dim = ctx.intAttr("all_gather_dim");
  if (!dim)
    return ctx.missingAttr("all_gather_dim");
  if (!checkNonNegative(ctx, "all_gather_dim", *dim))
    return false;
  if (!allTensors(ctx.op))
    return true;
  if (!checkPairwiseElementTypes(ctx))
    return false;
  if (!checkReplicaGroups(ctx, "replica_groups", /*allGroupsSameSize=*/true,
                          useGlobalDeviceIds(ctx), std::nullopt))
    return false;
  if (useGlobalDeviceIds(ctx) && channelId(ctx) < 0)
    return ctx.error("channel_id cannot be negative when useGlobalDeviceIds is set");
  for (unsigned i = 0; i < ctx.op.numOperands() && i < ctx.op.numResults(); ++i) {
    ir::Type operand = ctx.operandType(i), result = ctx.resultType(i);
    if (*dim >= operand.rank())
      return ctx.error("all_gather_dim must be a valid index of operand");
    if (operand.shape()[*dim] == 0)
      return ctx.error("dimension size of operand at 'all_gather_dim' cannot be zero");
    if (result.rank() != operand.rank())
      return ctx.error("operand and result must have the same rank");
    for (int64_t d = 0; d < operand.rank(); ++d)
      if (d != *dim && !compatibleDims(result.shape()[d], operand.shape()[d]))
        return ctx.error("operand and result should have the same shape except for the "
                         "dimension size at 'all_gather_dim'");
    int64_t in = operand.shape()[*dim], out = result.shape()[*dim];
    if (!isStaticDim(in) || !isStaticDim(out))
      continue;
    if (out % in != 0)
      return ctx.error("result gather dimension has size " + std::to_string(out) +
                       ", expected to be a multiple of operand gather dimension size " +
                       std::to_string(in));
  }
  return true;
}

bool verifyReduceScatter(const OpContext& ctx) {
  std::optional<int64_t> dim = ctx.intAttr("scatter_dimension");
  if (!dim)
    return ctx.missingAttr("scatter_dimension");
  if (!checkNonNegative(ctx, "scatter_dimension", *dim))
    return false;
  if (!checkReplicaGroups(ctx, "replica_groups", /*allGroupsSameSize=*/true,
                          useGlobalDeviceIds(ctx), std::nullopt))
    return false;
  if (!allTensors(ctx.op) || ctx.op.numOperands() != 1 || ctx.op.numResults() != 1 ||
      ctx.op.numRegions() != 1 || ctx.op.region(0).empty())
    return true;
  ir::Type operand = ctx.operandType(0), result = ctx.resultType(0), init = scalarOf(operand);
  if (!checkReducerShape(ctx, ctx.op.region(0).front(), {&operand, 1}, {&init, 1}, {}))
    return false;
  if (operand.rank() != result.rank())
    return ctx.error("operand and result should have same rank");
  if (*dim >= operand.rank())
    return ctx.error("scatter dim should be less than operand/result rank");
  if (!checkPositiveChannel(ctx))
    return false;
  int64_t in = operand.shape()[*dim], out = result.shape()[*dim];
  if (!isStaticDim(in) || !isStaticDim(out))
    return true;
  if (out == 0)
    return ctx.error("result dimension size at scatter_dimension cannot be zero");
  if (in == 0)
    return ctx.error("operand dimension size at scatter_dimension cannot be zero");
  if (in % out != 0)
    return ctx.error("operand scatter dimension has size " + std::to_string(in) +
                     ", expected to be a multiple of result scatter dimension size " +
                     std::to_string(out));
  for (int64_t d = 0; d < operand.rank(); ++d)
    if (d != *dim && !compatibleDims(operand.shape()[d], result.shape()[d]))
      return ctx.error("non scatter dimensions should be same for operand (" +
                       std::to_string(operand.shape()[d]) + ") and result (" +
                       std::to_string(result.shape()[d]) + ")");
  std::vector<ir::Type> acc = accumulatorTypes(ctx.op);
  if (!acc.empty() && isTensor(acc.front()) &&
      acc.front().elementType() != result.elementType())
    return ctx.error("result element-type is expected to be '" +
                     std::string(ir::elementTypeName(acc.front().elementType())) +
                     "', but got '" + std::string(ir::elementTypeName(result.elementType())) +
                     "'");
  return true;
}

bool allToAllEntry(const OpContext& ctx) {
  std::optional<int64_t> split = ctx.intAttr("split_dimension");
  std::optional<int64_t> concat = ctx.intAttr("concat_dimension");
  std::optional<int64_t> count = ctx.intAttr("split_count");
  if (!split || !concat || !count)
    return ctx.missingAttr(!split ? "split_dimension" : !concat ? "concat_dimension"
                                                                 : "split_count");
  if (!checkNonNegative(ctx, "split_dimension", *split) ||
      !checkNonNegative(ctx, "concat_dimension", *concat) ||
      !checkNonNegative(ctx, "split_count", *count, "positive"))
    return false;
  if (!allTensors(ctx.op))
    return true;
  if (!checkPairwiseElementTypes(ctx))
    return false;
  return true;
}

bool allToAllInfer(const OpContext& ctx) {
  std::optional<int64_t> split = ctx.intAttr("split_dimension");
  std::optional<int64_t> concat = ctx.intAttr("concat_dimension");
  std::optional<int64_t> count = ctx.intAttr("split_count");
  if (!allTensors(ctx.op) || !split || !concat || !count || *count <= 0)
    return true;
  if (!checkReplicaGroups(ctx, "replica_groups", /*allGroupsSameSize=*/true,
                          /*useGlobalDeviceIds=*/false, *count))
    return false;
  std::vector<ir::Type> inferred;
  for (const ir::Value* v : ctx.op.operands()) {
    ir::Type operand = v->type();
    int64_t rank = operand.rank();
    if (*split >= rank)
      return ctx.error("AllToAll split_dimension " + std::to_string(*split) +
                       " is out-of-bounds for input rank " + std::to_string(rank));
    if (*concat >= rank)
      return ctx.error("AllToAll concat_dimension " + std::to_string(*concat) +
                       " is out-of-bounds for input rank " + std::to_string(rank));
    std::vector<int64_t> shape(operand.shape().begin(), operand.shape().end());
    if (isStaticDim(shape[*split]) && shape[*split] % *count != 0)
      return ctx.error("split dimension has size " + std::to_string(shape[*split]) +
                       ", expected to be a multiple of split_count " + std::to_string(*count));
    if (isStaticDim(shape[*split]))
      shape[*split] /= *count;
    if (isStaticDim(shape[*concat]))
      shape[*concat] *= *count;
    inferred.push_back(ir::Type::tensor(shape, operand.elementType()));
  }
  return checkInferredTypes(ctx, inferred);
}

bool collectivePermuteInfer(const OpContext& ctx) {
  std::vector<ir::Type> operands;
  for (const ir::Value* v : ctx.op.operands())
    operands.push_back(v->type());
  return checkInferredTypes(ctx, operands);
}

bool verifyCollectivePermute(const OpContext& ctx) {
  if (!ctx.op.hasAttr("source_target_pairs"))
    return ctx.missingAttr("source_target_pairs");
  if (!checkSameElementTypes(ctx))
    return false;
  const auto* pairs = ctx.op.attr("source_target_pairs").as<ir::DenseElementsAttr>();
  if (!pairs || !isTensor(pairs->type))
    return true;
  std::span<const int64_t> shape = pairs->type.shape();
  if (shape.size() != 2)
    return ctx.error("expect source_target_pairs attribute to be of rank 2, but got rank " +
                     std::to_string(shape.size()));
  if (shape[1] != 2)
    return ctx.error("expect source_target_pairs attribute of shape (N, 2), but got (" +
                     joinInts(shape) + ")");
  std::unordered_set<int64_t> sources, targets;
  for (int64_t i = 0; i < pairs->numElements(); ++i) {
    int64_t id = pairs->intAt(i);
    if (id < 0)
      return ctx.error("replica ids in source_target_pairs must be >= 0.");
    if (i % 2 == 0 && !sources.insert(id).second)
      return ctx.error("duplicate sources not allowed.");
    if (i % 2 == 1 && !targets.insert(id).second)
      return ctx.error("duplicate targets not allowed.");
  }
  return true;
}

bool collectiveBroadcastInfer(const OpContext& ctx) {
  bool dynamicRoot = ctx.op.hasAttr("has_dynamic_root") &&
                     ir::stablehlo::boolAttr(ctx.op, "has_dynamic_root").value_or(true);
  std::vector<ir::Type> data;
  for (unsigned i = 0; i + (dynamicRoot ? 1 : 0) < ctx.op.numOperands(); ++i)
    data.push_back(ctx.operandType(i));
  return checkInferredTypes(ctx, data);
}

bool verifyCollectiveBroadcast(const OpContext& ctx) {
  bool dynamicRoot = ctx.op.hasAttr("has_dynamic_root") &&
                     ir::stablehlo::boolAttr(ctx.op, "has_dynamic_root").value_or(true);
  const auto* groups = ctx.op.attr("replica_groups").as<ir::DenseElementsAttr>();
  if (groups && isTensor(groups->type)) {
    if (groups->type.rank() != 2)
      return ctx.error("replica groups should be a rank 2 tensor,but instead it is of rank " +
                       std::to_string(groups->type.rank()));
    std::unordered_set<int64_t> seen;
    for (int64_t i = 0; i < groups->numElements(); ++i) {
      int64_t id = groups->intAt(i);
      if (id < 0)
        return ctx.error("replica_groups values must be positive, but was given " +
                         std::to_string(id));
      if (!seen.insert(id).second)
        return ctx.error("replica id #" + std::to_string(id) + " seen more than once");
    }
  }
  if (!dynamicRoot && ctx.op.numOperands() == 0)
    return ctx.error("collective_broadcast requires at least one data operand");
  if (!dynamicRoot)
    return true;
  unsigned n = ctx.op.numOperands();
  if (n < 2)
    return ctx.error("collective_broadcast with has_dynamic_root=true requires at least two "
                     "operands (data + root)");
  ir::Type root = ctx.operandType(n - 1);
  if (!isTensor(root) || root.elementType() != ir::ElementType::I32 || root.rank() != 1)
    return ctx.error("last operand of collective_broadcast with has_dynamic_root=true must be a "
                     "rank-1 i32 tensor, but got " +
                     quoted(root));
  if (root.shape()[0] != static_cast<int64_t>(n - 1))
    return ctx.error("last operand of collective_broadcast with has_dynamic_root=true must have "
                     "the same number of elements as data operands (" +
                     std::to_string(n - 1) + "), but got " + std::to_string(root.shape()[0]));
  return true;
}

} // namespace

void addCollectiveRules(RuleTable& table) {
  table.emplace("stablehlo.all_reduce", OpRules{&verifyAllReduce, &allReduceInfer});
  table.emplace("stablehlo.collective_reduce",
                OpRules{&verifyCollectiveReduce, &collectiveReduceInfer});
  table.emplace("stablehlo.all_gather", OpRules{&verifyAllGather, nullptr});
  table.emplace("stablehlo.reduce_scatter", OpRules{&verifyReduceScatter, nullptr});
  table.emplace("stablehlo.all_to_all", OpRules{&allToAllEntry, &allToAllInfer});
  table.emplace("stablehlo.collective_permute",
                OpRules{&verifyCollectivePermute, &collectivePermuteInfer});
  table.emplace("stablehlo.collective_broadcast",
                OpRules{&verifyCollectiveBroadcast, &collectiveBroadcastInfer});
}

} // namespace shardscope::verify::detail
