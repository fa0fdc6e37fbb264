// Shardy's verify-unreduced-axes pass: the unreduced-axes rule applied to every op after
// propagation.
#include "core/sharding/verify_unreduced_axes.h"

#include "core/sharding/axis_refs.h"
#include "core/sharding/detail/verify_support.h"

#include <algorithm>

namespace shardscope::sharding {

using detail::ErrorEmitter;
using detail::UnreducedTransition;
using detail::VerifyContext;
using ir::AxisRef;
using ir::Operation;

namespace {

// The shardings of one op's values, kept alive while a transition is verified.
struct ShardingList {
  std::vector<std::optional<ir::TensorSharding>> storage;
  std::vector<const ir::TensorSharding*> pointers;

  void add(const ir::TensorSharding* sharding) {
    storage.emplace_back(sharding ? std::optional(*sharding) : std::nullopt);
  }
  std::span<const ir::TensorSharding* const> view() {
    pointers.clear();
    for (const auto& s : storage)
      pointers.push_back(s ? &*s : nullptr);
    return pointers;
  }
};

bool isExplicitReshard(const Operation* op) {
  return op && (op->is("sdy.reshard") || op->is("sdy.sharding_constraint"));
}

// Whether `value` comes from a constraint or reshard, through barriers.
bool isBlessed(const ir::Value& value) {
  const ir::Value* current = &value;
  while (const Operation* def = current->definingOp()) {
    if (!def->is("sdy.propagation_barrier") || def->numOperands() != 1)
      return isExplicitReshard(def);
    current = def->operand(0);
  }
  return false;
}

std::optional<ir::TensorSharding> shardingThroughBarriers(const ir::Value& value) {
  std::optional<ir::TensorSharding> storage;
  const ir::TensorSharding* sharding = detail::shardingBypassingBarriers(value, storage);
  return sharding ? std::optional(*sharding) : std::nullopt;
}

const ir::TensorSharding* funcResultSharding(const Operation& fn, unsigned i) {
  const ir::DictionaryAttr* attrs = ir::func::resultAttrs(fn, i);
  const auto* sharding = attrs ? attrs->get("sdy.sharding").as<ir::ShardingAttr>() : nullptr;
  return sharding ? &sharding->sharding : nullptr;
}

std::string calleeOf(const Operation& call) {
  const auto* callee = call.attr("callee").as<ir::SymbolRefAttr>();
  return callee && !callee->path.empty() ? callee->path.back() : std::string();
}

class UnreducedVerifier {
public:
  UnreducedVerifier(const ir::Module& module, support::DiagnosticSink& sink)
      : m_ctx{module, sink} {}

  bool verifyFunction(const Operation& fn) {
    for (unsigned r = 0; r < fn.numRegions(); ++r)
      for (const auto& block : fn.region(r).blocks())
        if (!verifyBlock(*block))
          return false;
    return true;
  }

private:
  // Post-order, as MLIR's default walk: an op's nested ops before the op.
  bool verifyBlock(const ir::Block& block) {
    for (const auto& op : block.ops()) {
      for (unsigned r = 0; r < op->numRegions(); ++r)
        for (const auto& nested : op->region(r).blocks())
          if (!verifyBlock(*nested))
            return false;
      if (!verifyOp(*op))
        return false;
    }
    return true;
  }

  bool verifyOp(const Operation& op) {
    ErrorEmitter emit = detail::opError(op, m_ctx.sink);
    if (isExplicitReshard(&op))
      return detail::verifySdyOpInvariants(m_ctx, op) && detail::verifySdyOpSymbolUses(m_ctx, op);
    if (op.is("stablehlo.reduce"))
      return verifyWithOperands(op, op.numOperands() / 2, bodyReduction(op), std::nullopt);
    if (op.is("stablehlo.dot_general") || op.is("stablehlo.dot"))
      return verifyWithOperands(op, op.numOperands(), std::string("sum"), std::nullopt);
    if (op.is("sdy.all_reduce") || op.is("sdy.reduce_scatter")) {
      if (!shardingThroughBarriers(*op.operand(0)))
        return emit("operand must be sharded.");
      return detail::verifyCollectiveInvariants(m_ctx, op) &&
             detail::verifyCollectiveSymbolUses(m_ctx, op);
    }
    if (op.is("stablehlo.all_reduce") || op.is("stablehlo.reduce_scatter"))
      return verifyStablehloCollective(op);
    if (op.is("func.call"))
      return verifyCall(op);
    if (isTerminator(op))
      return !isReturnLike(op) || verifyTerminator(op);
    // Other ops may introduce summed unreduced axes but drop none.
    return verifyWithOperands(op, op.numOperands(), std::string("sum"), std::nullopt);
  }

  // The transition from the first `numInputs` operands (blessed ones count as unsharded) to all
  // results.
  bool verifyWithOperands(const Operation& op, unsigned numInputs,
                          std::optional<std::string> introduced,
                          std::optional<std::string> removed) {
    ShardingList operands, results;
    for (unsigned i = 0; i < numInputs && i < op.numOperands(); ++i) {
      std::optional<ir::TensorSharding> s =
          isBlessed(*op.operand(i)) ? std::nullopt : shardingThroughBarriers(*op.operand(i));
      operands.add(s ? &*s : nullptr);
    }
    for (const auto& result : op.results()) {
      std::optional<ir::TensorSharding> s = shardingThroughBarriers(*result);
      results.add(s ? &*s : nullptr);
    }
    return detail::verifyUnreducedAxesTransition(
        m_ctx, detail::opError(op, m_ctx.sink),
        UnreducedTransition{operands.view(), results.view(), introduced, removed});
  }

  bool verifyStablehloCollective(const Operation& op) {
    if (op.numOperands() == 0 || op.numResults() == 0)
      return true;
    std::optional<ir::TensorSharding> operand = shardingThroughBarriers(*op.operand(0));
    std::optional<ir::TensorSharding> result = shardingThroughBarriers(*op.result(0));
    if (!operand && !result)
      return true;
    const ir::TensorSharding* operands[] = {operand ? &*operand : nullptr};
    const ir::TensorSharding* results[] = {result ? &*result : nullptr};
    return detail::verifyUnreducedAxesTransition(
        m_ctx, detail::opError(op, m_ctx.sink),
        UnreducedTransition{operands, results, std::nullopt, bodyReduction(op)});
  }

  // Shardy's `verifyEqual`: the same set of axes, else the names that differ.
  bool verifyEqual(const std::vector<AxisRef>& source, const std::vector<AxisRef>& target,
                   const Operation& op, const std::string& suffix) {
    auto sortedUnique = [](std::vector<AxisRef> axes) {
      auto less = [](const AxisRef& a, const AxisRef& b) {
        auto key = [](const AxisRef& x) {
          return std::tuple(x.name, x.subAxis.has_value(), x.subAxis ? x.subAxis->preSize : 0,
                            x.subAxis ? x.subAxis->size : 0);
        };
        return key(a) < key(b);
      };
      std::sort(axes.begin(), axes.end(), less);
      axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
      return axes;
    };
    if (sortedUnique(source) == sortedUnique(target))
      return true;
    std::vector<std::string> names;
    for (const AxisRef& axis : source)
      if (std::find(target.begin(), target.end(), axis) == target.end())
        names.push_back(axis.name);
    for (const AxisRef& axis : target)
      if (std::find(source.begin(), source.end(), axis) == source.end())
        names.push_back(axis.name);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    std::string joined;
    for (size_t i = 0; i < names.size(); ++i)
      joined += (i ? ", " : "") + names[i];
    return detail::opError(op, m_ctx.sink)("has unreduced axes mismatch for '" + joined + suffix);
  }

  static std::vector<AxisRef> unreducedOf(const std::optional<ir::TensorSharding>& sharding) {
    return sharding ? sharding->unreducedAxes : std::vector<AxisRef>{};
  }

  bool verifyCall(const Operation& call) {
    const Operation* callee = m_ctx.module.lookupFunction(calleeOf(call));
    const ir::Block* body = callee ? ir::func::body(*callee) : nullptr;
    if (!callee)
      return true;
    for (unsigned i = 0; i < call.numOperands(); ++i) {
      const ir::Value& operand = *call.operand(i);
      if (isBlessed(operand))
        continue;
      std::optional<ir::TensorSharding> arg;
      if (body && i < body->numArguments())
        arg = shardingThroughBarriers(*body->argument(i));
      if (!verifyEqual(unreducedOf(shardingThroughBarriers(operand)), unreducedOf(arg), call,
                       "' at call argument " + std::to_string(i) + "."))
        return false;
    }
    for (unsigned i = 0; i < call.numResults(); ++i) {
      const ir::TensorSharding* fnResult = funcResultSharding(*callee, i);
      if (!verifyEqual(fnResult ? fnResult->unreducedAxes : std::vector<AxisRef>{},
                       unreducedOf(shardingThroughBarriers(*call.result(i))), call,
                       "' at call result " + std::to_string(i) + "."))
        return false;
    }
    return true;
  }

  static bool isTerminator(const Operation& op) {
    const ir::Block* block = op.parentBlock();
    return block && block->back() == &op && op.parentOp() &&
           (op.name().ends_with(".return") || op.name().ends_with(".yield"));
  }
  // MLIR's `ReturnLike` trait: `stablehlo.return` doesn't have it.
  static bool isReturnLike(const Operation& op) {
    return op.is("func.return") || op.is("sdy.return");
  }

  bool verifyReturnPair(const ir::Value& operand, const ir::TensorSharding* result,
                        const Operation& op, unsigned index) {
    if (isBlessed(operand) || !result)
      return true;
    return verifyEqual(unreducedOf(shardingThroughBarriers(operand)), result->unreducedAxes, op,
                       "' at return value " + std::to_string(index) +
                           " without a blessed operation (e.g., sdy.reshard). This is an invalid "
                           "transition from unreduced to reduced.");
  }

  bool verifyTerminator(const Operation& op) {
    const Operation* parent = op.parentOp();
    if (parent->is("func.func")) {
      for (unsigned i = 0; i < op.numOperands(); ++i)
        if (!verifyReturnPair(*op.operand(i), funcResultSharding(*parent, i), op, i))
          return false;
      return true;
    }
    for (unsigned i = 0; i < op.numOperands() && i < parent->numResults(); ++i) {
      std::optional<ir::TensorSharding> result = shardingThroughBarriers(*parent->result(i));
      if (result && parent->is("sdy.manual_computation"))
        result = withoutManualAxes(*result, *parent);
      if (!verifyReturnPair(*op.operand(i), result ? &*result : nullptr, op, i))
        return false;
    }
    return true;
  }

  VerifyContext m_ctx;
};

} // namespace

bool verifyUnreducedAxes(const ir::Module& module, support::DiagnosticSink& sink) {
  // A function pass in Shardy: each function reports its first error.
  UnreducedVerifier verifier(module, sink);
  bool ok = true;
  for (const Operation* fn : module.functions())
    ok = verifier.verifyFunction(*fn) && ok;
  return ok;
}

std::optional<std::string> bodyReduction(const Operation& op) {
  if (op.numRegions() == 0 || op.region(0).empty())
    return std::nullopt;
  const Operation* ret = op.region(0).front().back();
  if (!ret || !ret->is("stablehlo.return") || ret->numOperands() == 0)
    return std::nullopt;
  std::optional<std::string> result;
  for (const ir::Value* operand : ret->operands()) {
    const Operation* def = operand->definingOp();
    std::optional<std::string> kind;
    if (def && def->is("stablehlo.add"))
      kind = "sum";
    else if (def && def->is("stablehlo.maximum"))
      kind = "max";
    else if (def && def->is("stablehlo.minimum"))
      kind = "min";
    else
      return std::nullopt;
    if (result && *result != *kind)
      return std::nullopt;
    result = kind;
  }
  return result;
}

} // namespace shardscope::sharding
