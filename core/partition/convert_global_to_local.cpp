#include "core/partition/convert_global_to_local.h"

#include "core/partition/detail/global_to_local_converter.h"
#include "core/sharding/value_sharding.h"

#include <optional>
#include <string_view>
#include <vector>

// The driver of -sdy-convert-global-to-local: every value gets its local type, each op is
// rewritten by its kind (the rewrites live in global_to_local_*.cpp), manual computations are
// inlined and function signatures follow the new types.

namespace shardscope::partition {
namespace detail {
namespace {

using ir::Attribute;
using ir::Operation;
using ir::TensorSharding;
using ir::Type;
using ir::Value;
using sharding::ShardingLayout;

} // namespace

void GlobalToLocalConverter::recordValue(Value* value) {
  // Shardings are interned rather than copied: every value of the module is recorded.
  std::optional<TensorSharding> scratch;
  const TensorSharding* s = sharding::valueShardingRef(*value, scratch);
  m_global.emplace(value, GlobalInfo{value->type(), s ? m_shardings.intern(*s) : nullptr});
}

void GlobalToLocalConverter::localizeTypes(Operation& fn) {
  // Record every value's global type and sharding first: valueSharding reads the structure
  // (manual computations, collectives) that the rewrites below change.
  std::vector<Value*> values;
  fn.walk([&](Operation& op) {
    for (unsigned r = 0; r < op.numRegions(); ++r)
      for (auto& block : op.region(r).blocks())
        for (const auto& arg : block->arguments())
          values.push_back(arg.get());
    if (&op != &fn)
      for (const auto& result : op.results())
        values.push_back(result.get());
  });
  m_global.reserve(m_global.size() + values.size());
  for (Value* v : values)
    recordValue(v);
  for (Value* v : values)
    if (const ShardingLayout* layout = layoutOf(v))
      v->setType(m_layouts.localType(v->type(), *layout));
}

void GlobalToLocalConverter::forget(Operation& op) {
  // The values of an erased op are freed and their addresses reused by later ops: their global
  // view must not outlive them.
  op.walk([&](Operation& nested) {
    for (const auto& result : nested.results())
      m_global.erase(result.get());
    for (unsigned r = 0; r < nested.numRegions(); ++r)
      for (auto& block : nested.region(r).blocks())
        for (const auto& arg : block->arguments())
          m_global.erase(arg.get());
  });
}

void GlobalToLocalConverter::replace(Operation& op, std::span<Value* const> with) {
  // A StableHLO op rewritten into several: the op giving each result stands for it.
  if (m_standIns && op.name().starts_with("stablehlo."))
    for (unsigned i = 0; i < op.numResults() && i < with.size(); ++i)
      if (const Operation* by = with[i] ? with[i]->definingOp() : nullptr; by && by != &op)
        m_standIns->push_back({by, std::string(op.name()), op.loc()});
  for (unsigned i = 0; i < op.numResults(); ++i) {
    // Later rewrites read the global view of the replacement (e.g. a collective on it).
    if (const GlobalInfo* old = info(op.result(i)); old && !m_global.contains(with[i]))
      m_global.emplace(with[i], *old);
    op.result(i)->replaceAllUsesWith(with[i]);
  }
  forget(op);
  op.dropAllReferences();
  op.parentBlock()->erase(&op);
}

bool GlobalToLocalConverter::run() {
  for (Operation* fn : m_module.functions()) {
    if (!ir::func::body(*fn))
      continue;
    localizeTypes(*fn);
    std::vector<Operation*> ops;
    fn->walk([&](Operation& op) {
      if (&op != fn)
        ops.push_back(&op);
    });
    for (Operation* op : ops)
      if (!rewrite(*op))
        m_ok = false;
    std::vector<Operation*> manuals;
    fn->walk([&](Operation& op) {
      if (op.is("sdy.manual_computation") || op.is("sdy.named_computation"))
        manuals.push_back(&op);
    });
    for (Operation* op : manuals)
      inlineManualComputation(*op);
    updateSignature(*fn);
  }
  return m_ok;
}

bool GlobalToLocalConverter::rewrite(Operation& op) {
  std::string_view name = op.name();
  if (name == "stablehlo.constant" || name == "sdy.constant")
    return rewriteConstant(op);
  if (name == "stablehlo.iota")
    return rewriteIota(op);
  if (name == "stablehlo.pad")
    return rewritePad(op);
  if (name == "stablehlo.convolution")
    return rewriteConvolution(op);
  if (name == "stablehlo.gather")
    return rewriteGather(op);
  if (name == "stablehlo.scatter")
    return rewriteScatter(op);
  if (name == "stablehlo.slice")
    return rewriteSlice(op);
  if (name == "stablehlo.dynamic_slice")
    return rewriteDynamicSlice(op);
  if (name == "stablehlo.reverse" || name == "stablehlo.reshape")
    return checkLocal(op);
  if (name == "sdy.all_gather")
    return lowerAllGather(op);
  if (name == "sdy.all_reduce")
    return lowerAllReduce(op);
  if (name == "sdy.reduce_scatter")
    return lowerReduceScatter(op);
  if (name == "sdy.all_to_all")
    return lowerAllToAll(op);
  if (name == "sdy.collective_permute")
    return lowerCollectivePermute(op);
  if (name == "sdy.all_slice")
    return lowerAllSlice(op);
  if (name == "sdy.sharding_constraint" || name == "sdy.reshard" ||
      name == "sdy.propagation_barrier") {
    // Identities when every device already holds its block; otherwise (a constraint or reshard
    // that -sdy-reshard-to-collectives didn't lower) through the replicated value.
    if (sameLayout(layoutOf(op.operand(0)), layoutOf(op.result(0)))) {
      std::vector<Value*> with{op.operand(0)};
      replace(op, with);
      return true;
    }
    lowerViaReplication(op);
    return true;
  }
  if (name == "sdy.replicated_to_unreduced")
    return lowerReplicatedToUnreduced(op);
  if (name == "sdy.sharded_to_unreduced")
    return lowerShardedToUnreduced(op);
  return true;
}

void GlobalToLocalConverter::inlineManualComputation(Operation& op) {
  ir::Block& body = op.region(0).front();
  bool named = op.is("sdy.named_computation");
  for (unsigned i = 0; i < body.numArguments(); ++i) {
    Value* operand = op.operand(i);
    // A named computation's `in_shardings` may lay its arguments out differently from the
    // operands (a manual computation's body sees exactly the operand's blocks).
    if (named && !sameLayout(layoutOf(operand), layoutOf(body.argument(i)))) {
      const GlobalInfo* in = info(operand);
      operand = reshardLocal(op, operand, in ? in->sharding : nullptr, globalType(operand),
                             layoutOf(body.argument(i)), op);
    }
    body.argument(i)->replaceAllUsesWith(operand);
  }
  Operation* terminator = body.back();
  std::vector<Value*> returned(terminator->operands().begin(), terminator->operands().end());
  if (named)
    for (size_t i = 0; i < returned.size(); ++i)
      if (!sameLayout(layoutOf(returned[i]), layoutOf(op.result(static_cast<unsigned>(i))))) {
        const GlobalInfo* in = info(returned[i]);
        returned[i] = reshardLocal(*terminator, returned[i], in ? in->sharding : nullptr,
                                   globalType(returned[i]),
                                   layoutOf(op.result(static_cast<unsigned>(i))), op);
      }
  while (body.ops().front().get() != terminator) {
    Operation* moved = body.ops().front().get();
    op.parentBlock()->insertBefore(&op, body.take(moved));
  }
  for (unsigned i = 0; i < op.numResults(); ++i) {
    // The body's value may carry a different (equivalent) local type spelling; the body's
    // type is the one the device computes.
    op.result(i)->replaceAllUsesWith(returned[i]);
  }
  terminator->dropAllReferences();
  forget(op);
  op.dropAllReferences();
  op.parentBlock()->erase(&op);
}

void GlobalToLocalConverter::updateSignature(Operation& fn) {
  ir::Block* body = ir::func::body(fn);
  std::vector<Type> inputs;
  for (const auto& arg : body->arguments())
    inputs.push_back(arg->type());
  std::vector<Type> results(ir::func::type(fn).results().begin(),
                            ir::func::type(fn).results().end());
  if (Operation* ret = body->back(); ret && ret->numOperands() == results.size())
    for (unsigned i = 0; i < results.size(); ++i)
      results[i] = ret->operand(i)->type();
  fn.setAttr("function_type", Attribute::type(Type::function(inputs, results)));
}

bool GlobalToLocalConverter::sameLayout(const ShardingLayout* a, const ShardingLayout* b) {
  if (!a || !b) {
    const ShardingLayout* other = a ? a : b;
    return !other || other->numShards() == 1;
  }
  if (a == b) // interned: the same layout
    return true;
  if (a->localShape() != b->localShape())
    return false;
  for (const sharding::DeviceBlock& block : m_layouts.blocks(*a)) {
    const sharding::DeviceBlock* twin = m_layouts.blockOf(*b, block.deviceId);
    if (!twin || twin->ranges != block.ranges)
      return false;
  }
  return a->numDevices() == b->numDevices();
}

} // namespace detail

bool convertGlobalToLocal(ir::Module& module, const ConvertGlobalToLocalOptions& options,
                          support::DiagnosticSink& sink, std::vector<LoweredCollective>* log,
                          std::vector<StandIn>* standIns) {
  detail::GlobalToLocalConverter converter(module, options, sink, log, standIns);
  converter.startChannelsAfter(detail::nextChannelHandle(module));
  return converter.run();
}

} // namespace shardscope::partition
