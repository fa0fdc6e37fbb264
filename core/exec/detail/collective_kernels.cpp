#include "core/exec/detail/collectives.h"

#include "core/exec/communicator.h"
#include "core/exec/process_groups.h"

#include <algorithm>
#include <cstring>

namespace shardscope::exec::detail {

namespace {

// Recognises all_reduce/reduce_scatter bodies that are one binary op on the two block arguments
// followed by a return, so they can skip running the region per element.
Reduction::Kind fastKind(const ir::Region& region) {
  if (region.empty())
    return Reduction::Kind::Custom;
  const ir::Block& block = region.front();
  if (block.numArguments() != 2 || block.ops().size() != 2)
    return Reduction::Kind::Custom;
  const ir::Operation& op = *block.ops().front();
  const ir::Operation& ret = *block.ops().back();
  if (op.numOperands() != 2 || op.numResults() != 1 || ret.numOperands() != 1 ||
      ret.operand(0) != op.result(0))
    return Reduction::Kind::Custom;
  bool args = (op.operand(0) == block.argument(0) && op.operand(1) == block.argument(1)) ||
              (op.operand(0) == block.argument(1) && op.operand(1) == block.argument(0));
  if (!args)
    return Reduction::Kind::Custom;
  static const std::pair<std::string_view, Reduction::Kind> kOps[] = {
      {"stablehlo.add", Reduction::Kind::Add},         {"stablehlo.multiply", Reduction::Kind::Multiply},
      {"stablehlo.maximum", Reduction::Kind::Maximum}, {"stablehlo.minimum", Reduction::Kind::Minimum},
      {"stablehlo.and", Reduction::Kind::And},         {"stablehlo.or", Reduction::Kind::Or}};
  for (const auto& [name, kind] : kOps)
    if (op.is(name))
      return kind;
  return Reduction::Kind::Custom;
}

// The reduction of an all_reduce/reduce_scatter. The spec applies the two-argument body to each
// operand separately (variadic all_reduce reduces every operand on its own): a fast builtin for
// single-op bodies, otherwise the region run per element on scalars through this device's frame
// stack.
std::optional<Reduction> makeReduction(KernelContext& ctx) {
  if (ctx.op.numRegions() != 1 || ctx.op.region(0).empty() ||
      ctx.op.region(0).front().numArguments() != 2) {
    ctx.fail("expected one reduction region with two arguments");
    return std::nullopt;
  }
  const ir::Region& region = ctx.op.region(0);
  Reduction::Kind kind = fastKind(region);
  // The builtin reductions read elements as real numbers: complex operands run the region.
  bool anyComplex = false;
  for (const Tensor& t : ctx.operands)
    anyComplex = anyComplex || ir::isComplexElement(t.elementType());
  if (kind != Reduction::Kind::Custom && !anyComplex)
    return builtinReduction(kind);
  Reduction r;
  r.combine = [&ctx, &region](const std::vector<Tensor>& lhs, const std::vector<Tensor>& rhs)
      -> std::optional<std::vector<Tensor>> {
    std::vector<Tensor> out;
    for (size_t k = 0; k < lhs.size(); ++k) {
      Tensor acc(lhs[k].elementType(), lhs[k].shape());
      for (int64_t i = 0; i < lhs[k].numElements(); ++i) {
        std::vector<Tensor> args;
        for (const Tensor* side : {&lhs[k], &rhs[k]}) {
          Tensor scalar(side->elementType(), {});
          copyElement(*side, i, scalar, 0);
          args.push_back(std::move(scalar));
        }
        std::optional<std::vector<Tensor>> values = ctx.regions.runRegion(region, std::move(args));
        if (!values)
          return std::nullopt;
        if (values->size() != 1 || (*values)[0].elementType() != acc.elementType() ||
            (*values)[0].numElements() != 1) {
          ctx.fail("reduction region must return one scalar of the operand element type");
          return std::nullopt;
        }
        copyElement((*values)[0], 0, acc, i);
      }
      out.push_back(std::move(acc));
    }
    return out;
  };
  return r;
}

int64_t dimAttr(KernelContext& ctx, std::string_view name, int64_t rank, bool& ok) {
  std::optional<int64_t> v = intAttr(ctx.op, name);
  if (!v || *v < 0 || *v >= std::max<int64_t>(rank, 1)) {
    ok = ctx.fail("expected attribute '" + std::string(name) + "' in [0, " +
                  std::to_string(rank) + ")");
    return 0;
  }
  return *v;
}

// Source/target pairs as global device ids of this device's process group.
std::optional<std::vector<std::pair<int64_t, int64_t>>> permutePairs(KernelContext& ctx,
                                                                     const DeviceContext& dev) {
  ir::Attribute attr = ctx.op.attr("source_target_pairs");
  const auto* dense = attr ? attr.as<ir::DenseElementsAttr>() : nullptr;
  std::optional<std::vector<int64_t>> flat = intListAttr(ctx.op, "source_target_pairs");
  if (!flat || flat->size() % 2 != 0 ||
      (dense && (dense->type.shape().size() != 2 ||
                 (dense->numElements() > 0 && dense->type.shape()[1] != 2)))) {
    ctx.fail("expected 'source_target_pairs' as an Nx2 integer tensor");
    return std::nullopt;
  }
  bool crossPartition = groupMode(ctx.op) == GroupMode::CrossPartition;
  int64_t limit = crossPartition ? dev.numPartitions : dev.numReplicas;
  std::vector<std::pair<int64_t, int64_t>> pairs;
  for (size_t i = 0; i < flat->size(); i += 2) {
    int64_t ids[2] = {(*flat)[i], (*flat)[i + 1]};
    for (int64_t& id : ids) {
      if (id < 0 || id >= limit) {
        ctx.fail("source_target_pairs id " + std::to_string(id) + " is out of range [0, " +
                 std::to_string(limit) + ")");
        return std::nullopt;
      }
      id = crossPartition ? dev.replica * dev.numPartitions + id
                          : id * dev.numPartitions + dev.partition;
    }
    pairs.emplace_back(ids[0], ids[1]);
  }
  return pairs;
}

// Stores a communicator result as the op's next result, or reports its error.
template <typename T> bool store(KernelContext& ctx, CommResult<T> result) {
  if (!result)
    return ctx.fail(result.error());
  ctx.results.push_back(std::move(*result));
  return true;
}

bool reduceScatter(KernelContext& ctx, Communicator& comm, const CollectiveCall& call) {
  bool ok = ctx.expectOperands(1);
  int64_t dim = ok ? dimAttr(ctx, "scatter_dimension", ctx.operands[0].rank(), ok) : 0;
  std::optional<Reduction> reduction = ok ? makeReduction(ctx) : std::nullopt;
  if (!reduction)
    return false;
  if (ctx.operands[0].shape()[dim] % static_cast<int64_t>(call.group.size()) != 0)
    return ctx.fail("scatter dimension size " + std::to_string(ctx.operands[0].shape()[dim]) +
                    " is not divisible by the group size " + std::to_string(call.group.size()));
  return store(ctx, comm.reduceScatter(call, ctx.operands[0], dim, *reduction));
}

// all_gather and all_to_all may be variadic: one exchange per operand, in operand order, each
// with its own id (`stablehlo.all_gather#1`) so that members cannot cross operands.
bool gatherOrAllToAll(KernelContext& ctx, Communicator& comm, CollectiveCall call) {
  std::string_view name = ctx.op.name();
  int64_t groupSize = static_cast<int64_t>(call.group.size());
  bool ok = true;
  for (size_t i = 0; i < ctx.operands.size() && ok; ++i) {
    const Tensor& operand = ctx.operands[i];
    call.id.opName = std::string(name) + (ctx.operands.size() > 1 ? "#" + std::to_string(i) : "");
    if (name == "stablehlo.all_gather") {
      int64_t dim = dimAttr(ctx, "all_gather_dim", operand.rank(), ok);
      ok = ok && store(ctx, comm.allGather(call, operand, dim));
      continue;
    }
    int64_t split = dimAttr(ctx, "split_dimension", operand.rank(), ok);
    int64_t concat = ok ? dimAttr(ctx, "concat_dimension", operand.rank(), ok) : 0;
    std::optional<int64_t> count = intAttr(ctx.op, "split_count");
    if (ok && count && *count != groupSize)
      return ctx.fail("split_count " + std::to_string(*count) + " differs from the group size " +
                      std::to_string(groupSize));
    if (ok && operand.shape()[split] % groupSize != 0)
      return ctx.fail("split dimension size " + std::to_string(operand.shape()[split]) +
                      " is not divisible by the group size " + std::to_string(groupSize));
    ok = ok && store(ctx, comm.allToAll(call, operand, split, concat));
  }
  return ok;
}

// With `has_dynamic_root`, the last operand holds, per data operand, the index inside the group of
// the member whose value is taken (the reducing or broadcasting root); else it is member 0.
bool hasDynamicRoot(const KernelContext& ctx) {
  ir::Attribute attr = ctx.op.attr("has_dynamic_root");
  const auto* b = attr.as<ir::BoolAttr>();
  return b ? b->value : static_cast<bool>(attr);
}

std::optional<std::vector<int64_t>> rootIndices(KernelContext& ctx, size_t numData,
                                                size_t groupSize) {
  std::vector<int64_t> roots(numData, 0);
  if (!hasDynamicRoot(ctx))
    return roots;
  const Tensor& root = ctx.operands.back();
  if (root.numElements() < static_cast<int64_t>(numData)) {
    ctx.fail("expected " + std::to_string(numData) + " root indices, got " + root.type().str());
    return std::nullopt;
  }
  for (size_t i = 0; i < numData; ++i) {
    roots[i] = root.intAt(static_cast<int64_t>(i));
    if (roots[i] < 0 || roots[i] >= static_cast<int64_t>(groupSize)) {
      ctx.fail("root index " + std::to_string(roots[i]) + " is out of range for a group of " +
               std::to_string(groupSize));
      return std::nullopt;
    }
  }
  return roots;
}

size_t dataOperandCount(const KernelContext& ctx) {
  return ctx.operands.size() - (hasDynamicRoot(ctx) && !ctx.operands.empty() ? 1 : 0);
}

// collective_broadcast: each data operand is replaced by the root member's. A gather of every
// member's value (along a new leading dimension) and a pick of the root's slice, so roots may
// differ per operand.
bool collectiveBroadcast(KernelContext& ctx, Communicator& comm, CollectiveCall call) {
  size_t numData = dataOperandCount(ctx);
  std::optional<std::vector<int64_t>> roots = rootIndices(ctx, numData, call.group.size());
  if (!roots)
    return false;
  for (size_t i = 0; i < numData; ++i) {
    const Tensor& operand = ctx.operands[i];
    call.id.opName = "stablehlo.collective_broadcast" + (numData > 1 ? "#" + std::to_string(i) : "");
    if ((*roots)[i] == 0 && numData == 1 && ctx.operands.size() == 1) {
      if (!store(ctx, comm.collectiveBroadcast(call, operand)))
        return false;
      continue;
    }
    std::vector<int64_t> lifted = operand.shape();
    lifted.insert(lifted.begin(), 1);
    auto gathered = comm.allGather(call, operand.reinterpreted(operand.elementType(), lifted), 0);
    if (!gathered)
      return ctx.fail(gathered.error());
    Tensor picked = Tensor::uninitialized(operand.elementType(), operand.shape());
    size_t bytes = picked.bytes().size();
    std::copy_n(gathered->bytes().begin() + static_cast<std::ptrdiff_t>((*roots)[i] * bytes),
                bytes, picked.bytes().begin());
    ctx.results.push_back(std::move(picked));
  }
  return true;
}

// collective_reduce: every member's operands are reduced with the body as all_reduce does; only
// the root member keeps the result, the others get zeros.
bool collectiveReduce(KernelContext& ctx, Communicator* comm, const CollectiveCall& call) {
  size_t numData = dataOperandCount(ctx);
  std::optional<std::vector<int64_t>> roots = rootIndices(ctx, numData, call.group.size());
  std::optional<Reduction> reduction = roots ? makeReduction(ctx) : std::nullopt;
  if (!reduction)
    return false;
  std::vector<Tensor> data(ctx.operands.begin(),
                           ctx.operands.begin() + static_cast<std::ptrdiff_t>(numData));
  std::vector<Tensor> reduced = data;
  if (comm) {
    auto result = comm->allReduce(call, std::move(data), *reduction);
    if (!result)
      return ctx.fail(result.error());
    reduced = std::move(*result);
  }
  for (size_t i = 0; i < reduced.size(); ++i) {
    if (call.group[static_cast<size_t>((*roots)[i])] != call.device)
      reduced[i] = Tensor(reduced[i].elementType(), reduced[i].shape());
    ctx.results.push_back(std::move(reduced[i]));
  }
  return true;
}

bool runCollective(KernelContext& ctx, const DeviceContext& dev) {
  std::string_view name = ctx.op.name();
  if (name.starts_with("sdy.")) {
    // sdy collectives change how a global value is laid out, never the value: on one device (a
    // global-view run, such as the reference run) they are the identity.
    if (dev.numDevices() == 1 && ctx.operands.size() == 1 && ctx.op.numResults() == 1 &&
        ctx.op.result(0)->type() == ctx.operands[0].type()) {
      ctx.results.push_back(ctx.operands[0]);
      return true;
    }
    return ctx.fail("sdy collectives work on global programs and are not executed per device; "
                    "lower them with -sdy-convert-global-to-local first");
  }
  CommResult<std::vector<int64_t>> group = processGroup(ctx.op, dev);
  if (!group)
    return ctx.fail(group.error());
  CollectiveCall call{dev.device, {std::string(name), ctx.op.loc(), shortLoc(ctx.op.loc())},
                      *group};
  if (call.group.empty()) { // collective_broadcast / collective_reduce outside every group: zeros
    for (unsigned i = 0; i < ctx.op.numResults(); ++i) {
      std::optional<Tensor> zero = ctx.makeResult(i);
      if (!zero)
        return false;
      ctx.results.push_back(std::move(*zero));
    }
    return true;
  }
  Communicator* comm = dev.communicator;
  if (!comm && !(call.group.size() == 1 && call.group[0] == dev.device))
    return ctx.fail("collective over " + std::to_string(call.group.size()) +
                    " devices needs a multi-device run (no communicator)");
  if (name == "stablehlo.collective_reduce")
    return collectiveReduce(ctx, comm, call);
  if (name == "stablehlo.all_reduce") {
    std::optional<Reduction> reduction = makeReduction(ctx);
    if (!reduction)
      return false;
    if (!comm) { // a group of one: the values themselves
      ctx.results.assign(ctx.operands.begin(), ctx.operands.end());
      return true;
    }
    // Operands handed over are reduced in place (their buffers become the results): no copy.
    std::vector<Tensor> inputs = ctx.ownedOperands
                                     ? std::move(*ctx.ownedOperands)
                                     : std::vector<Tensor>(ctx.operands.begin(), ctx.operands.end());
    auto result = comm->allReduce(call, std::move(inputs), *reduction);
    if (!result)
      return ctx.fail(result.error());
    ctx.results = std::move(*result);
    return true;
  }
  if (ctx.operands.empty())
    return ctx.fail("expected at least one operand");
  if (name == "stablehlo.collective_permute") {
    auto pairs = permutePairs(ctx, dev);
    if (!pairs || !ctx.expectOperands(1))
      return false;
    if (comm)
      return store(ctx, comm->collectivePermute(call, ctx.operands[0], *pairs));
    // A group of one: the device keeps its value only when it sends to itself.
    bool self = std::find(pairs->begin(), pairs->end(),
                          std::make_pair(dev.device, dev.device)) != pairs->end();
    ctx.results.push_back(self ? ctx.operands[0]
                               : Tensor(ctx.operands[0].elementType(), ctx.operands[0].shape()));
    return true;
  }
  if (!comm) { // a group of one: gathering, scattering or broadcasting to oneself is the identity
    ctx.results.assign(ctx.operands.begin(), ctx.operands.end());
    return true;
  }
  if (name == "stablehlo.reduce_scatter")
    return reduceScatter(ctx, *comm, call);
  if (name == "stablehlo.collective_broadcast")
    return collectiveBroadcast(ctx, *comm, std::move(call));
  return gatherOrAllToAll(ctx, *comm, std::move(call));
}

} // namespace

std::string shortLoc(support::SourceLocation loc) {
  if (!loc.isValid())
    return {};
  return std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

bool isDeviceOp(std::string_view name) {
  return name == "stablehlo.replica_id" || name == "stablehlo.partition_id" ||
         isCollectiveOp(name);
}

bool runDeviceOp(KernelContext& ctx, const DeviceContext& device) {
  if (ctx.op.is("stablehlo.replica_id") || ctx.op.is("stablehlo.partition_id")) {
    std::optional<Tensor> t = ctx.makeResult(0);
    if (!t || !ctx.expectOperands(0))
      return false;
    t->setInt(0, ctx.op.is("stablehlo.replica_id") ? device.replica : device.partition);
    ctx.results.push_back(std::move(*t));
    return true;
  }
  return runCollective(ctx, device);
}

} // namespace shardscope::exec::detail
