#include "core/verify/stablehlo_verifier.h"

#include "core/verify/detail/op_context.h"
#include "core/verify/detail/quant_rules.h"

#include <limits>

namespace shardscope::verify {

namespace {

using detail::OpContext;

const detail::RuleTable& rules() {
  static const detail::RuleTable table = [] {
    detail::RuleTable t;
    detail::addElementwiseRules(t);
    detail::addShapeRules(t);
    detail::addSlicingRules(t);
    detail::addContractionRules(t);
    detail::addCollectiveRules(t);
    detail::addRegionRules(t);
    detail::addGatherRules(t);
    detail::addLinalgRules(t);
    detail::addWindowRules(t);
    detail::addIoRules(t);
    detail::addInterpreterRules(t);
    detail::addAsyncRules(t);
    detail::addChloRules(t);
    detail::addQuantRules(t);
    t.emplace("func.return", detail::OpRules{&detail::verifyFuncReturn, nullptr});
    return t;
  }();
  return table;
}

// A static shape whose element count overflows int64 would wrap every size computed from it
// (buffers, strides, shard sizes); no later stage can handle it, so it is rejected up front.
bool elementCountFits(ir::Type type) {
  if (!detail::isTensor(type))
    return true;
  int64_t count = 1;
  for (int64_t dim : type.shape()) {
    if (!detail::isStaticDim(dim) || dim == 0)
      return true;
    if (dim < 0 || count > std::numeric_limits<int64_t>::max() / dim)
      return false;
    count *= dim;
  }
  return true;
}

bool checkElementCounts(const OpContext& ctx) {
  auto tooLarge = [&](ir::Type type) {
    return ctx.error("tensor type " + detail::quoted(type) +
                     " has more elements than a 64-bit signed integer can count");
  };
  for (const auto& result : ctx.op.results())
    if (!elementCountFits(result->type()))
      return tooLarge(result->type());
  for (unsigned r = 0; r < ctx.op.numRegions(); ++r)
    for (const auto& block : ctx.op.region(r).blocks())
      for (const auto& arg : block->arguments())
        if (!elementCountFits(arg->type()))
          return tooLarge(arg->type());
  return true;
}

struct Walker {
  const ir::Module& module;
  support::DiagnosticSink& sink;
  std::vector<const ir::Operation*> calls;

  bool visit(const ir::Operation& op) {
    OpContext ctx{module, op, sink};
    if (!detail::checkKnownOp(ctx) || !checkElementCounts(ctx) ||
        !detail::checkQuantTypeClasses(ctx) ||
        !detail::checkElementTypeClasses(ctx) || !detail::checkQuantizedReducers(ctx))
      return false;
    const detail::OpRules* opRules = nullptr;
    if (auto it = rules().find(op.name()); it != rules().end())
      opRules = &it->second;
    if (op.is("func.call") || op.is("stablehlo.composite"))
      calls.push_back(&op);
    if (opRules && opRules->entry && !opRules->entry(ctx))
      return false;
    for (unsigned r = 0; r < op.numRegions(); ++r)
      for (const auto& block : op.region(r).blocks())
        for (const auto& nested : block->ops())
          if (!visit(*nested))
            return false;
    if (opRules && opRules->infer && !opRules->infer(ctx))
      return ctx.opError("failed to infer returned types");
    return true;
  }
};

} // namespace

bool verifyStablehlo(const ir::Module& module, support::DiagnosticSink& sink) {
  Walker walker{module, sink, {}};
  // As MLIR, which verifies the ops isolated from above (functions) each on its own: the first
  // error of every top-level op is reported, not only the module's first. (The module op has no
  // rule of its own.)
  const ir::Operation& top = module.op();
  bool ok = true;
  for (unsigned r = 0; r < top.numRegions(); ++r)
    for (const auto& block : top.region(r).blocks())
      for (const auto& op : block->ops())
        ok = walker.visit(*op) && ok;
  if (!ok)
    return false;
  // MLIR checks symbol uses when it leaves the module, after every op's own invariants.
  for (const ir::Operation* call : walker.calls) {
    OpContext ctx{module, *call, sink};
    if (!(call->is("func.call") ? detail::verifyCall(ctx) : detail::verifyComposite(ctx)))
      return false;
  }
  return true;
}

bool hasStablehloRule(std::string_view opName) {
  return opName == "func.call" || opName == "stablehlo.composite" || rules().contains(opName);
}

} // namespace shardscope::verify
