#include "core/import/round_trip/import_shardy_attrs.h"

#include "core/import/common/frontend_attrs.h"
#include "core/import/common/import_sdy_custom_calls.h"
#include "core/import/common/op_rewrite.h"
#include "core/import/round_trip/frontend_attr_reader.h"
#include "core/import/round_trip/round_trip_constants.h"

#include <vector>

namespace shardscope::import_ {

namespace {

using Kind = ir::Attribute::Kind;

bool isPythonCallback(std::string_view target) {
  return target == "xla_python_cpu_callback" || target == "xla_ffi_python_cpu_callback" ||
         target == "xla_python_gpu_callback" || target == "xla_ffi_python_gpu_callback";
}

bool isX64Combine(const ir::Operation* op) {
  return op && customCallTarget(*op) == "X64Combine";
}

// The `X64Combine` call both results of a two-result FuncResultSharding feed, if any: XLA's x64
// rewriter splits a 64-bit result into two 32-bit halves around the call.
ir::Operation* x64CombineOf(const ir::Operation& call) {
  if (call.numResults() != 2)
    return nullptr;
  const auto& lhsUses = call.result(0)->uses();
  const auto& rhsUses = call.result(1)->uses();
  if (lhsUses.size() != 1 || rhsUses.size() != 1 || lhsUses[0].user != rhsUses[0].user)
    return nullptr;
  return isX64Combine(lhsUses[0].user) ? lhsUses[0].user : nullptr;
}

class AttrImporter {
public:
  AttrImporter(ir::Module& module, support::DiagnosticSink& sink)
      : m_module(module), m_reader(sink) {}

  bool run() {
    importMeshes();
    for (ir::Operation* fn : m_module.functions())
      importFunction(*fn);
    return !m_reader.failed();
  }

private:
  void importMeshes() {
    ir::Operation& moduleOp = m_module.op();
    ir::Attribute meshes =
        m_reader.read(frontendAttrs(moduleOp), kMeshesRoundTripAttr, Kind::Dictionary,
                      moduleOp.loc());
    removeFrontendAttr(moduleOp, kMeshesRoundTripAttr);
    const auto* dict = meshes.as<ir::DictionaryAttr>();
    if (!dict)
      return;
    // Meshes go before everything else, in the dictionary's order.
    ir::Block& body = m_module.body();
    ir::Operation* first = body.empty() ? nullptr : body.ops().front().get();
    for (const auto& entry : dict->entries) {
      ir::Attribute mesh(entry.value);
      if (!mesh.as<ir::MeshAttr>())
        continue;
      auto op = ir::Operation::create("sdy.mesh", {}, {}, moduleOp.loc());
      op->setAttr("sym_name", ir::Attribute::string(entry.name));
      op->setAttr("mesh", mesh);
      op->setInherent("sym_name", true);
      op->setInherent("mesh", true);
      body.insertBefore(first, std::move(op));
    }
  }

  void importFunction(ir::Operation& fn) {
    unsigned numArgs = static_cast<unsigned>(ir::func::type(fn).elements().size());
    for (unsigned i = 0; i < numArgs; ++i) {
      ir::func::setArgAttr(fn, i, kXlaShardingAttr, {});
      ir::Attribute sharding = m_reader.read(argFrontendAttrs(fn, i), kShardingRoundTripAttr,
                                             Kind::Sharding, fn.loc());
      if (sharding) {
        ir::func::setArgAttr(fn, i, "sdy.sharding", sharding);
        removeArgFrontendAttr(fn, i, kShardingRoundTripAttr);
      }
    }
    unsigned numResults = static_cast<unsigned>(ir::func::type(fn).results().size());
    for (unsigned i = 0; i < numResults; ++i)
      ir::func::setResultAttr(fn, i, kXlaShardingAttr, {});
    if (!ir::func::body(fn))
      return;
    forEachNestedOp(fn, [&](ir::Operation& op) { importOp(fn, op); });
  }

  void importOp(ir::Operation& fn, ir::Operation& op) {
    op.removeAttr(kXlaShardingAttr);
    const ir::DictionaryAttr* dict = frontendAttrs(op);
    if (!dict)
      return;
    if (op.is("stablehlo.send") || op.is("stablehlo.recv")) {
      if (ir::Attribute s = readPerValue(op, dict))
        op.setAttr("sdy.sharding", s);
    }
    std::string_view target = customCallTarget(op);
    if (target == kFuncResultShardingTarget) {
      importFuncResultSharding(fn, op, dict);
      return;
    }
    if (target == kShardingCustomCallTarget || isPythonCallback(target)) {
      if (ir::Attribute s = readPerValue(op, dict))
        op.setAttr("sdy.sharding", s);
    }
    removeFrontendAttr(op, kShardingRoundTripAttr);
    if (ir::Attribute rule =
            m_reader.read(frontendAttrs(op), kShardingRuleRoundTripAttr, Kind::ShardingRule,
                          op.loc())) {
      op.setAttr("sdy.sharding_rule", rule);
      removeFrontendAttr(op, kShardingRuleRoundTripAttr);
    }
  }

  ir::Attribute readPerValue(const ir::Operation& op, const ir::DictionaryAttr* dict) {
    return m_reader.read(dict, kShardingRoundTripAttr, Kind::ShardingPerValue, op.loc());
  }

  // Moves the sharding of a `@xla.sdy.FuncResultSharding` call onto the function results it
  // feeds, then removes the call (or keeps its sharding as a constraint for other users).
  void importFuncResultSharding(ir::Operation& fn, ir::Operation& call,
                                const ir::DictionaryAttr* dict) {
    ir::Attribute perValue = readPerValue(call, dict);
    const auto* shardings = perValue.as<ir::ShardingPerValueAttr>();
    if (!shardings || shardings->shardings.empty())
      return;
    ir::Attribute sharding = ir::Attribute::sharding(shardings->shardings.front());
    ir::Operation* combine = x64CombineOf(call);
    std::vector<ir::Use> uses;
    if (combine) {
      combine->setAttr("sdy.sharding", perValue);
      uses = combine->result(0)->uses();
    } else {
      for (const auto& result : call.results())
        uses.insert(uses.end(), result->uses().begin(), result->uses().end());
      // A result with no elements is replaced by a constant by XLA, so the call has no uses;
      // its operand's users are the ones to look at then.
      if (uses.empty() && call.numOperands() > 0 && call.operand(0)->definingOp())
        uses = call.operand(0)->uses();
    }
    bool otherUsers = false;
    for (const ir::Use& use : uses) {
      if (use.user->is("func.return") && use.user->parentOp() == &fn)
        ir::func::setResultAttr(fn, use.index, "sdy.sharding", sharding);
      else if (use.user != &call && !isX64Combine(use.user))
        otherUsers = true;
    }
    if (otherUsers && !combine && call.numOperands() == 1) {
      replaceOp(call, unaryOpLike(call, "sdy.sharding_constraint", *call.operand(0), "sharding",
                                  sharding));
      return;
    }
    replaceOpWithOperands(call);
  }

  ir::Module& m_module;
  FrontendAttrReader m_reader;
};

} // namespace

bool importShardyAttrs(ir::Module& module, support::DiagnosticSink& sink) {
  return AttrImporter(module, sink).run();
}

} // namespace shardscope::import_
