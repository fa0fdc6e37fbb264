// `async_start` and `async_done` (StablehloOps.cpp AsyncStartOp/AsyncDoneOp::inferReturnTypes):
// a start wraps one collective or slice op in its region and returns a `!stablehlo.future` of
// what the region returns; a done unwraps it. Futures are kept as text, so their one type
// parameter is compared as printed.

#include "core/verify/detail/op_context.h"

#include <unordered_set>

namespace shardscope::verify::detail {

namespace {

constexpr std::string_view kFuture = "!stablehlo.future<";

// The type parameters of a future's text, split at its top-level commas.
std::optional<std::vector<std::string>> futureParameters(ir::Type type) {
  if (type.kind() != ir::Type::Kind::Opaque || !type.opaqueText().starts_with(kFuture))
    return std::nullopt;
  std::string_view text = type.opaqueText();
  text = text.substr(kFuture.size(), text.size() - kFuture.size() - 1);
  std::vector<std::string> params;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ',';
    if (c == '<' || c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == '>' || c == ')' || c == ']' || c == '}')
      --depth;
    else if (c == ',' && depth == 0) {
      std::string_view param = text.substr(start, i - start);
      while (!param.empty() && param.front() == ' ')
        param.remove_prefix(1);
      if (!param.empty())
        params.emplace_back(param);
      start = i + 1;
    }
  }
  return params;
}

bool asyncStartEntry(const OpContext& ctx) {
  if (ctx.op.numRegions() != 1)
    return ctx.opError("requires one region");
  return true;
}

bool asyncStartInfer(const OpContext& ctx) {
  const std::string op = "'stablehlo.async_start' op ";
  if (ctx.op.region(0).empty())
    return ctx.error(op + "region must not be empty");
  const ir::Block& block = ctx.op.region(0).front();
  if (block.ops().size() != 2)
    return ctx.error(op + "region must contain exactly one operation and a return");
  static const std::unordered_set<std::string_view> wrappable = {
      "stablehlo.all_gather",          "stablehlo.all_reduce",
      "stablehlo.all_to_all",          "stablehlo.collective_broadcast",
      "stablehlo.collective_permute",  "stablehlo.collective_reduce",
      "stablehlo.dynamic_slice",       "stablehlo.dynamic_update_slice",
      "stablehlo.reduce_scatter",      "stablehlo.slice"};
  if (!wrappable.contains(block.ops().front()->name()))
    return ctx.error(op + "region must contain a collective or slice operation");
  if (ctx.op.numOperands() != block.numArguments())
    return ctx.error(op + "number of operands (" + std::to_string(ctx.op.numOperands()) +
                     ") must match number of region arguments (" +
                     std::to_string(block.numArguments()) + ")");
  for (unsigned i = 0; i < ctx.op.numOperands(); ++i)
    if (ctx.operandType(i) != block.argument(i)->type())
      return ctx.error(op + "operand type " + quoted(ctx.operandType(i)) + " at index " +
                       std::to_string(i) + " must match region argument type " +
                       quoted(block.argument(i)->type()));
  const ir::Operation* terminator = block.back();
  if (!terminator || terminator->numOperands() != 1)
    return ctx.error(op + "region must return exactly one value, but got " +
                     std::to_string(terminator ? terminator->numOperands() : 0));
  const std::string inferred =
      std::string(kFuture) + terminator->operand(0)->type().str() + ">";
  if (ctx.op.numResults() == 1 && ctx.resultType(0).str() == inferred)
    return true;
  return ctx.opError("inferred type(s) '" + inferred +
                     "' are incompatible with return type(s) of operation " +
                     (ctx.op.numResults() == 1 ? quoted(ctx.resultType(0)) : std::string("''")));
}

bool asyncDoneInfer(const OpContext& ctx) {
  const std::string op = "'stablehlo.async_done' op ";
  std::optional<std::vector<std::string>> params =
      ctx.op.numOperands() == 1 ? futureParameters(ctx.operandType(0)) : std::nullopt;
  if (!params)
    return ctx.error(op + "operand must be a future type");
  if (params->size() != 1)
    return ctx.error(op + "future must have exactly one type parameter, but got " +
                     std::to_string(params->size()));
  if (ctx.op.numResults() == 1 && ctx.resultType(0).str() == params->front())
    return true;
  return ctx.opError("inferred type(s) '" + params->front() +
                     "' are incompatible with return type(s) of operation " +
                     (ctx.op.numResults() == 1 ? quoted(ctx.resultType(0)) : std::string("''")));
}

} // namespace

void addAsyncRules(RuleTable& table) {
  table.emplace("stablehlo.async_start", OpRules{&asyncStartEntry, &asyncStartInfer});
  table.emplace("stablehlo.async_done", OpRules{nullptr, &asyncDoneInfer});
}

} // namespace shardscope::verify::detail
