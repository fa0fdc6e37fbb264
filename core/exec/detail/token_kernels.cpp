// Tokens and tuples as values: `after_all` / `create_token` make a token (StableHLO's tokens
// carry no data, they only order side effects, and one device runs its ops in order anyway);
// `tuple` packs values and `get_tuple_element` takes one out; `outfeed` only yields its token.
#include "core/exec/detail/kernel.h"

namespace shardscope::exec::detail {

namespace {

bool afterAll(KernelContext& ctx) {
  for (const Tensor& t : ctx.operands)
    if (!t.isToken())
      return ctx.fail("expected token operands, got " + t.type().str());
  ctx.results.push_back(Tensor::token());
  return true;
}

// `outfeed`: the values leave the program; nothing in a run reads them back, so only the token
// that orders the effect remains.
bool outfeed(KernelContext& ctx) {
  if (ctx.operands.empty() || !ctx.operands.back().isToken())
    return ctx.fail("expected the last operand to be a token");
  ctx.results.push_back(Tensor::token());
  return true;
}

bool makeTuple(KernelContext& ctx) {
  ctx.results.push_back(Tensor::tuple({ctx.operands.begin(), ctx.operands.end()}));
  return true;
}

bool getTupleElement(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  const Tensor& t = ctx.operands[0];
  std::optional<int64_t> index = intAttr(ctx.op, "index");
  if (!t.isTuple())
    return ctx.fail("expected a tuple operand, got " + t.type().str());
  if (!index || *index < 0 || *index >= static_cast<int64_t>(t.tupleElements().size()))
    return ctx.fail("tuple index out of range");
  ctx.results.push_back(t.tupleElements()[static_cast<size_t>(*index)]);
  return true;
}

} // namespace

void registerTokenKernels(std::map<std::string, Kernel, std::less<>>& table) {
  table["stablehlo.after_all"] = afterAll;
  table["stablehlo.create_token"] = afterAll;
  table["stablehlo.outfeed"] = outfeed;
  table["stablehlo.tuple"] = makeTuple;
  table["stablehlo.get_tuple_element"] = getTupleElement;
}

} // namespace shardscope::exec::detail
