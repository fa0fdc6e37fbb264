// `func.call` and `func.return`: the func dialect's own checks (MLIR's `CallOp::verifySymbolUses`
// and `ReturnOp::verify`), which every StableHLO program relies on to tie functions together;
// and `stablehlo.composite`'s reference to its decomposition (TypeInference.cpp
// `verifyCompositeOp`), also checked as a symbol use.

#include "core/verify/detail/op_context.h"

#include "core/ir/attribute.h"

#include <regex>

namespace shardscope::verify::detail {

bool verifyCall(const OpContext& ctx) {
  const auto* callee = ctx.op.attr("callee").as<ir::SymbolRefAttr>();
  if (!callee)
    return ctx.opError("requires a 'callee' symbol reference attribute");
  if (callee->path.size() != 1)
    return true; // nested references name symbols in nested tables: not modelled
  const ir::Operation* fn = ctx.module.lookupFunction(callee->path.front());
  if (!fn)
    return ctx.opError("'" + callee->path.front() + "' does not reference a valid function");
  ir::Type fnType = ir::func::type(*fn);
  if (!fnType || fnType.kind() != ir::Type::Kind::Function)
    return true;
  std::span<const ir::Type> inputs = fnType.elements();
  std::span<const ir::Type> results = fnType.results();
  if (inputs.size() != ctx.op.numOperands())
    return ctx.opError("incorrect number of operands for callee");
  for (unsigned i = 0; i < inputs.size(); ++i)
    if (ctx.operandType(i) != inputs[i])
      return ctx.opError("operand type mismatch: expected operand type " + quoted(inputs[i]) +
                         ", but provided " + quoted(ctx.operandType(i)) +
                         " for operand number " + std::to_string(i));
  if (results.size() != ctx.op.numResults())
    return ctx.opError("incorrect number of results for callee");
  for (unsigned i = 0; i < results.size(); ++i)
    if (ctx.resultType(i) != results[i]) {
      std::vector<ir::Type> actual;
      for (const auto& r : ctx.op.results())
        actual.push_back(r->type());
      support::Diagnostic d{support::Severity::Error,
                            "'func.call' op result type mismatch at index " + std::to_string(i),
                            ctx.op.loc(),
                            {{"      op result types: " + quotedList(actual), ctx.op.loc()},
                             {"function result types: " + quotedList(results), ctx.op.loc()}}};
      ctx.sink.report(std::move(d));
      return false;
    }
  return true;
}

bool verifyComposite(const OpContext& ctx) {
  const auto* name = ctx.op.attr("name").as<ir::StringAttr>();
  const auto* decomposition = ctx.op.attr("decomposition").as<ir::SymbolRefAttr>();
  if (!name || !decomposition || decomposition->path.size() != 1)
    return true;
  static const char* kNamePattern = "^[a-zA-Z][a-zA-Z0-9_]*([.][a-zA-Z0-9_$]+)+$";
  static const std::regex kName(kNamePattern);
  if (!std::regex_match(name->value, kName))
    return ctx.error(std::string("name must be a valid namespaced op name, i.e. it must match "
                                 "the following regular expression: ") +
                     kNamePattern + " e.g. \"my_namespace.my_op\"");
  const std::string& callee = decomposition->path.front();
  const ir::Operation* fn = ctx.module.lookupFunction(callee);
  if (!fn)
    return ctx.error("'" + callee + "' does not reference a valid function");
  ir::Type fnType = ir::func::type(*fn);
  if (!fnType || fnType.kind() != ir::Type::Kind::Function)
    return true;
  std::span<const ir::Type> inputs = fnType.elements(), results = fnType.results();
  if (inputs.size() != ctx.op.numOperands())
    return ctx.error("has " + std::to_string(ctx.op.numOperands()) +
                     " operand(s), but decomposition has " + std::to_string(inputs.size()));
  for (unsigned i = 0; i < inputs.size(); ++i)
    if (ctx.operandType(i) != inputs[i])
      return ctx.error("operand at index " + std::to_string(i) + " has type " +
                       quoted(ctx.operandType(i)) + ", but decomposition has type " +
                       quoted(inputs[i]));
  if (results.size() != ctx.op.numResults())
    return ctx.error("has " + std::to_string(ctx.op.numResults()) +
                     " result(s), but decomposition has " + std::to_string(results.size()));
  for (unsigned i = 0; i < results.size(); ++i)
    if (ctx.resultType(i) != results[i])
      return ctx.error("result at index " + std::to_string(i) + " has type " +
                       quoted(ctx.resultType(i)) + ", but decomposition has type " +
                       quoted(results[i]));
  return true;
}

bool verifyFuncReturn(const OpContext& ctx) {
  const ir::Operation* fn = ctx.op.parentOp();
  if (!fn || !fn->is("func.func"))
    return true;
  ir::Type fnType = ir::func::type(*fn);
  if (!fnType || fnType.kind() != ir::Type::Kind::Function)
    return true;
  std::string name(ir::func::name(*fn));
  std::span<const ir::Type> results = fnType.results();
  if (results.size() != ctx.op.numOperands())
    return ctx.opError("has " + std::to_string(ctx.op.numOperands()) +
                       " operands, but enclosing function (@" + name + ") returns " +
                       std::to_string(results.size()));
  for (unsigned i = 0; i < results.size(); ++i)
    if (ctx.operandType(i) != results[i])
      return ctx.error("type of return operand " + std::to_string(i) + " (" +
                         quoted(ctx.operandType(i)) + ") doesn't match function result type (" +
                         quoted(results[i]) + ") in function @" + name);
  return true;
}

} // namespace shardscope::verify::detail
