// `stablehlo.custom_call` in the interpreter: the calls JAX and XLA put in sharded programs that
// leave values unchanged on every device, and a located refusal for every other target.
//
// What each identity means, per device, after SPMD partitioning (XLA's spmd_partitioner and
// Shardy's round-trip constants):
// - `@Sharding`, `@xla.sdy.FuncResultSharding`, `@xla.sdy.PropagationBarrier`: annotations that
//   pin or block a sharding; the partitioner replaces them by their partitioned operand.
// - `@SPMDFullToShardShape` / `@SPMDShardToFullShape` and Shardy's round-trip
//   `@xla.sdy.GlobalToLocalShape` / `@xla.sdy.LocalToGlobalShape`: the switch between automatic
//   and manual partitioning. The partitioner emits a copy of the operand's local block, so on a
//   device the result is the operand, and the operand is already the device's block. A global
//   operand (a program whose shardings were never partitioned) is refused: its block depends on
//   the device, which a single-device run does not have.
// - `@annotate_device_placement`, `@MoveToHost`, `@MoveToDevice`: memory placement only.
// - `@xla.sdy.ShardingGroup`: ties shardings together and has no results.
// - `@LayoutConstraint`: a layout request; values are unchanged.
#include "core/exec/detail/kernel.h"

#include <algorithm>
#include <array>

namespace shardscope::exec::detail {

namespace {

constexpr std::array<std::string_view, 12> kIdentityTargets = {
    "Sharding",
    "SPMDFullToShardShape",
    "SPMDShardToFullShape",
    "xla.sdy.GlobalToLocalShape",
    "xla.sdy.LocalToGlobalShape",
    "xla.sdy.FuncResultSharding",
    "xla.sdy.PropagationBarrier",
    "xla.sdy.ShardingGroup",
    "annotate_device_placement",
    "MoveToHost",
    "MoveToDevice",
    "LayoutConstraint",
};

} // namespace

bool isIdentityCustomCall(std::string_view target) {
  return std::find(kIdentityTargets.begin(), kIdentityTargets.end(), target) !=
         kIdentityTargets.end();
}

namespace {

bool customCall(KernelContext& ctx) {
  std::string target = ir::stablehlo::stringAttr(ctx.op, "call_target_name");
  if (!isIdentityCustomCall(target)) {
    ctx.sink.error(ctx.op.loc(), "cannot execute custom call @" + target +
                                     ": the interpreter runs only the calls that leave values "
                                     "unchanged (@Sharding, @SPMDFullToShardShape, "
                                     "@SPMDShardToFullShape, xla.sdy.* markers, placement)");
    return false;
  }
  // A call without results (a sharding group) only marks its operands.
  if (ctx.op.numResults() == 0)
    return true;
  if (ctx.op.numResults() != ctx.operands.size())
    return ctx.fail("custom call @" + target + " has " + std::to_string(ctx.operands.size()) +
                    " operands and " + std::to_string(ctx.op.numResults()) +
                    " results; as an identity it needs one result per operand");
  for (unsigned i = 0; i < ctx.op.numResults(); ++i) {
    ir::Type want = ctx.op.result(i)->type();
    if (ctx.operands[i].type() != want)
      return ctx.fail("custom call @" + target + " operand " + std::to_string(i) + " is " +
                      ctx.operands[i].type().str() + " but its result is " + want.str() +
                      ": on a device the operand must already be the block the result names "
                      "(run the per-device program of a partitioned module)");
    ctx.results.push_back(ctx.operands[i]);
  }
  return true;
}

} // namespace

void registerCustomCallKernels(std::map<std::string, Kernel, std::less<>>& table) {
  table["stablehlo.custom_call"] = customCall;
}

} // namespace shardscope::exec::detail
