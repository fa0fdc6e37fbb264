// Ops with regions: the reduction bodies shared by `reduce` and the collectives, `reduce`,
// `sort`, `while`, `if` and `case` (TypeInference.cpp: `verifyReducerShape`,
// `verifyReduceOpInputsAndInferShape`, `inferReduceOp`, `verifySortOp`, `verifyWhileOp`,
// `inferConditionalOp`, `inferMapOp`).

#include "core/verify/detail/op_context.h"

#include <unordered_set>

namespace shardscope::verify::detail {

namespace {

enum class ElementKind { Integer, Float, Complex, Other };

ElementKind kindOf(ir::ElementType e) {
  if (e == ir::ElementType::Index)
    return ElementKind::Other;
  if (ir::isComplexElement(e))
    return ElementKind::Complex;
  if (ir::isFloatElement(e))
    return ElementKind::Float;
  if (ir::isIntegerElement(e))
    return ElementKind::Integer;
  return ElementKind::Other;
}

// `compatibleShapeAndElementType`.
bool sameShapeAndElement(ir::Type a, ir::Type b, bool ignoreFpPrecision) {
  if (!isTensor(a) || !isTensor(b))
    return compatibleTypes(a, b);
  if (!compatibleShapes(a.shape(), b.shape()))
    return false;
  if (ignoreFpPrecision && ir::isFloatElement(a.elementType()) &&
      ir::isFloatElement(b.elementType()))
    return true;
  return a.elementType() == b.elementType();
}

// `isPromotableElementType`: same kind of element and no narrower.
bool promotable(ir::Type from, ir::Type to, bool ignoreFpPrecision) {
  if (!isTensor(from) || !isTensor(to))
    return true;
  ElementKind kind = kindOf(from.elementType());
  if (kind == ElementKind::Other || kind != kindOf(to.elementType()))
    return from.elementType() == to.elementType();
  if (ignoreFpPrecision && kind == ElementKind::Float)
    return true;
  return ir::elementBitWidth(from.elementType()) <= ir::elementBitWidth(to.elementType());
}

std::vector<ir::Type> terminatorTypes(const ir::Block& block) {
  std::vector<ir::Type> types;
  if (const ir::Operation* terminator = block.back())
    for (const ir::Value* v : terminator->operands())
      types.push_back(v->type());
  return types;
}

bool compatibleLists(std::span<const ir::Type> a, std::span<const ir::Type> b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!compatibleTypes(a[i], b[i]))
      return false;
  return true;
}

std::string elementName(ir::Type type) {
  return "'" + std::string(isTensor(type) ? ir::elementTypeName(type.elementType()) : "?") + "'";
}

bool checkReduce(const OpContext& ctx, bool inferOnly) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() % 2 != 0 || ctx.op.numOperands() == 0 ||
      ctx.op.numRegions() != 1 || ctx.op.region(0).empty())
    return true;
  std::optional<std::vector<int64_t>> dims = ctx.intList("dimensions");
  if (!dims)
    return ctx.missingAttr("dimensions");
  size_t n = ctx.op.numOperands() / 2;
  std::vector<ir::Type> inputs, inits;
  for (size_t i = 0; i < n; ++i) {
    inputs.push_back(ctx.operandType(static_cast<unsigned>(i)));
    inits.push_back(ctx.operandType(static_cast<unsigned>(n + i)));
  }
  ir::Type witness = inputs.front();
  for (size_t i = 1; i < n; ++i)
    if (!compatibleShapes(witness.shape(), inputs[i].shape()))
      return ctx.error("expects all inputs to have compatible shapes. Shape at input-index " +
                       std::to_string(i) + " is not compatible with shape at input-index 0");
  std::unordered_set<int64_t> reduced;
  for (int64_t dim : *dims) {
    if (dim < 0 || dim >= witness.rank())
      return ctx.error("Out-of-bounds dimension " + std::to_string(dim) +
                       ", expected to be in range [0, " + std::to_string(witness.rank()) + ")");
    if (!reduced.insert(dim).second)
      return ctx.error("Duplicate reduction dimension: " + std::to_string(dim));
  }
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < witness.rank(); ++d)
    if (!reduced.contains(d))
      kept.push_back(witness.shape()[d]);
  if (!inferOnly)
    return checkReducerShape(ctx, ctx.op.region(0).front(), inputs, inits, kept);
  std::vector<ir::Type> acc = accumulatorTypes(ctx.op);
  std::vector<ir::Type> inferred;
  for (size_t i = 0; i < n; ++i) {
    ir::Type element = i < acc.size() && isTensor(acc[i]) ? acc[i] : inputs[i];
    inferred.push_back(ir::Type::tensor(kept, element.elementType()));
  }
  return checkInferredTypes(ctx, inferred);
}

// `ReduceOp::verify` (`verifyReduceOp`), then on exit its `inferReduceOp`.
bool reduceEntry(const OpContext& ctx) { return checkReduce(ctx, /*inferOnly=*/false); }
bool reduceInfer(const OpContext& ctx) { return checkReduce(ctx, /*inferOnly=*/true); }

// `InferTensorType` of `sort` and `while`: the results have the operands' types.
bool sameAsOperandsInfer(const OpContext& ctx) {
  return checkInferredTypes(ctx, ir::operandTypes(ctx.op));
}

bool verifySort(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numOperands() == 0 || ctx.op.numRegions() != 1 ||
      ctx.op.region(0).empty())
    return true;
  if (!checkSameShapes(ctx))
    return false;
  std::vector<ir::Type> inputs = operandTypes(ctx.op);
  int64_t dim = ctx.intAttr("dimension").value_or(-1);
  int64_t rank = inputs.front().rank();
  if (dim < -rank || dim >= rank)
    return ctx.error("dimension attribute value must be in range [-" + std::to_string(rank) +
                     ", " + std::to_string(rank) + "), but found " + std::to_string(dim));
  const ir::Block& block = ctx.op.region(0).front();
  if (block.numArguments() != 2 * inputs.size())
    return ctx.error("comparator block should have " + std::to_string(2 * inputs.size()) +
                     " arguments");
  for (size_t index = 0; index < inputs.size(); ++index) {
    ir::Type scalar = ir::Type::tensor({}, inputs[index].elementType());
    for (size_t i : {2 * index, 2 * index + 1}) {
      ir::Type arg = block.argument(static_cast<unsigned>(i))->type();
      if (arg != scalar)
        return ctx.error("comparator block argument #" + std::to_string(i) +
                         " should be of type " + quoted(scalar) + " but got " + quoted(arg));
    }
  }
  std::vector<ir::Type> results = terminatorTypes(block);
  if (results.size() != 1)
    return ctx.error("comparator must return single output but got " +
                     std::to_string(results.size()));
  if (!isTensor(results[0]) || results[0].rank() != 0 ||
      results[0].elementType() != ir::ElementType::I1)
    return ctx.error("comparator must return tensor<i1> but got " + quoted(results[0]));
  return true;
}

bool verifyWhile(const OpContext& ctx) {
  if (ctx.op.numRegions() != 2 || ctx.op.region(0).empty() || ctx.op.region(1).empty())
    return true;
  std::vector<ir::Type> operands = operandTypes(ctx.op);
  auto argTypes = [](const ir::Block& block) {
    std::vector<ir::Type> types;
    for (const auto& arg : block.arguments())
      types.push_back(arg->type());
    return types;
  };
  const ir::Block& cond = ctx.op.region(0).front();
  const ir::Block& body = ctx.op.region(1).front();
  std::vector<ir::Type> condArgs = argTypes(cond), bodyArgs = argTypes(body);
  if (!compatibleLists(operands, condArgs))
    return ctx.error("expect operands to be compatible with condition block arguments but got " +
                     quotedList(operands) + " vs " + quotedList(condArgs));
  if (!compatibleLists(operands, bodyArgs))
    return ctx.error("expect operands to be compatible with body block arguments but got " +
                     quotedList(operands) + " vs " + quotedList(bodyArgs));
  if (!body.back())
    return ctx.error("The while body-region expected to have a terminator");
  std::vector<ir::Type> bodyResults = terminatorTypes(body);
  if (!compatibleLists(operands, bodyResults))
    return ctx.error("expect operands to be compatible with body block return types but got " +
                     quotedList(operands) + " vs " + quotedList(bodyResults));
  std::vector<ir::Type> condResults = terminatorTypes(cond);
  if (condResults.size() != 1)
    return ctx.error("expect condition body returns a single value but got " +
                     std::to_string(condResults.size()));
  if (!isTensor(condResults[0]) || condResults[0].rank() != 0 ||
      condResults[0].elementType() != ir::ElementType::I1)
    return ctx.error("expect condition block return a zero-ranked tensor of i1 but got " +
                     quoted(condResults[0]));
  return true;
}

// `if` and `case`: the index operand is a scalar and every branch returns the same types.
bool verifyConditional(const OpContext& ctx) {
  if (ctx.op.numOperands() != 1 || !isTensor(ctx.operandType(0)))
    return true;
  int64_t rank = ctx.operandType(0).rank();
  if (rank != 0)
    return ctx.error("operand should be rank 0 tensor but got rank " + std::to_string(rank));
  if (ctx.op.numRegions() == 0)
    return ctx.error("expect at least one branch");
  for (unsigned r = 0; r < ctx.op.numRegions(); ++r)
    if (ctx.op.region(r).empty())
      return ctx.error("expect non-empty region");
  std::vector<ir::Type> first = terminatorTypes(ctx.op.region(0).front());
  for (unsigned r = 0; r < ctx.op.numRegions(); ++r) {
    const ir::Block& block = ctx.op.region(r).front();
    std::string branch = "branch " + std::to_string(r);
    if (block.numArguments() != 0)
      return ctx.error(branch + " must have 0 arguments, but found " +
                       std::to_string(block.numArguments()));
    std::vector<ir::Type> types = terminatorTypes(block);
    if (!compatibleLists(first, types))
      return ctx.error("branch 0 and " + branch + " have mismatched return types: " +
                       quotedList(first) + " vs " + quotedList(types));
  }
  return checkInferredTypes(ctx, first);
}

bool mapEntry(const OpContext& ctx) { return !allTensors(ctx.op) || checkSameShapes(ctx); }

bool mapInfer(const OpContext& ctx) {
  if (!allTensors(ctx.op) || ctx.op.numRegions() != 1 || ctx.op.numResults() != 1)
    return true;
  if (ctx.op.region(0).empty())
    return ctx.error("expect non-empty region");
  const ir::Block& block = ctx.op.region(0).front();
  if (ctx.op.numOperands() != block.numArguments())
    return ctx.error("expects number of operands to match the arity of map computation, but "
                     "got: " +
                     std::to_string(ctx.op.numOperands()) + " and " +
                     std::to_string(block.numArguments()));
  for (unsigned i = 0; i < block.numArguments(); ++i) {
    ir::Type arg = block.argument(i)->type();
    if (!isTensor(arg))
      return true;
    if (arg.rank() != 0)
      return ctx.error("computation arguments must be 0-rank tensor, but got: arg #" +
                       std::to_string(i) + " of type " + quoted(arg));
    if (arg.elementType() != ctx.operandType(i).elementType())
      return ctx.error("element type of operands and computation arguments must match, but "
                       "got: '" +
                       std::string(ir::elementTypeName(ctx.operandType(i).elementType())) +
                       "' and '" + std::string(ir::elementTypeName(arg.elementType())) + "'");
  }
  std::vector<ir::Type> outputs = terminatorTypes(block);
  if (outputs.size() != 1)
    return ctx.error("computation must return single output, but got: " +
                     std::to_string(outputs.size()));
  if (!isTensor(outputs[0]))
    return true;
  if (outputs[0].rank() != 0)
    return ctx.error("computation must return 0-rank tensor, but got: " + quoted(outputs[0]));
  std::vector<int64_t> dims = ctx.intListOrEmpty("dimensions");
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] != static_cast<int64_t>(i))
      return ctx.error("requires monotonically increasing dimension numbers, but got: " +
                       joinInts(dims));
  std::span<const int64_t> shape;
  for (const ir::Value* operand : ctx.op.operands()) {
    if (dims.size() != operand->type().shape().size())
      return ctx.error("applied to a subset of dimensions currently not supported: operand "
                       "dimensions = " +
                       std::to_string(operand->type().shape().size()) +
                       ", requested map dimensions size = " + std::to_string(dims.size()));
    shape = operand->type().shape();
  }
  return checkInferredTensor(ctx, shape, outputs[0].elementType());
}

} // namespace

std::vector<ir::Type> accumulatorTypes(const ir::Operation& op) {
  if (op.numRegions() == 0 || op.region(0).empty())
    return {};
  return terminatorTypes(op.region(0).front());
}

bool checkReducerShape(const OpContext& ctx, const ir::Block& block,
                       std::span<const ir::Type> inputs, std::span<const ir::Type> inits,
                       std::span<const int64_t> allowedDims) {
  size_t n = inputs.size();
  if (block.numArguments() != 2 * n)
    return ctx.error("Reduction-region must take " + std::to_string(2 * n) +
                     " parameters, but takes " + std::to_string(block.numArguments()) +
                     " parameter(s)");
  if (!block.back())
    return ctx.error("The reduction-region expected to have a terminator");
  std::vector<ir::Type> acc = terminatorTypes(block);
  if (acc.empty())
    return ctx.error("The reduction-region expected to return some value(s)");
  if (acc.size() != n)
    return ctx.error("Reduction-region here must produce " + std::to_string(n) +
                     " tensors, but produces " + std::to_string(acc.size()) + " instead");
  for (const ir::Type& t : acc)
    if (!isTensor(t) && t.kind() != ir::Type::Kind::Opaque)
      return ctx.error("Reduction-region here must produce tensor-typed result(s), but produces " +
                       quoted(t) + " instead");
  for (size_t i = 0; i < n; ++i) {
    ir::Type arg = block.argument(static_cast<unsigned>(i))->type();
    ir::Type arg2 = block.argument(static_cast<unsigned>(n + i))->type();
    std::string index = std::to_string(i), index2 = std::to_string(n + i);
    if (!sameShapeAndElement(acc[i], arg, /*ignoreFpPrecision=*/false))
      return ctx.error("The type of reduction-region's parameter at index " + index +
                       " is different than the corresponding result type: " + quoted(arg) +
                       " vs " + quoted(acc[i]));
    if (!sameShapeAndElement(acc[i], arg2, /*ignoreFpPrecision=*/true))
      return ctx.error("The type of reduction-region's parameter at index " + index2 +
                       " is different than the corresponding result type: " + quoted(arg2) +
                       " vs " + quoted(acc[i]));
    if (!isTensor(acc[i]) || !isTensor(arg2) || !isTensor(inits[i]) || !isTensor(inputs[i]))
      continue;
    if (!compatibleShapes(inits[i].shape(), acc[i].shape()))
      return ctx.error("The shape of reduction-region's result type at index " + index +
                       " differs from the op's corresponding init-value type: " +
                       quoted(acc[i]) + " vs " + quoted(inits[i]));
    if (!promotable(inits[i], acc[i], /*ignoreFpPrecision=*/true))
      return ctx.error("The element-type of reduction-region's result type at index " + index +
                       " is expected to be promotable from the op's corresponding init-value "
                       "element-type: " +
                       quoted(acc[i]) + " vs " + quoted(inits[i]));
    if (!promotable(inputs[i], arg2, /*ignoreFpPrecision=*/true))
      return ctx.error("The element-type of reduction-region's argument at index " + index2 +
                       " is expected to be promotable from " + elementName(inputs[i]) +
                       ", but got " + elementName(arg2));
    std::span<const int64_t> argShape = arg2.shape();
    if (argShape.size() > allowedDims.size())
      return ctx.error("The rank of reduction-region's argument at index " + index2 +
                       " is expected to be <= " + std::to_string(allowedDims.size()) + ", got " +
                       std::to_string(argShape.size()));
    size_t matched = 0;
    for (size_t d = 0; d < allowedDims.size() && matched < argShape.size(); ++d)
      if (compatibleDims(allowedDims[d], argShape[matched]))
        ++matched;
    if (matched != argShape.size())
      return ctx.error("The shape of reduction-region's argument at index " + index2 +
                       " is not compatible with that of reduce-op's input-parameter at index " +
                       index);
  }
  return true;
}

void addRegionRules(RuleTable& table) {
  table.emplace("stablehlo.reduce", OpRules{&reduceEntry, &reduceInfer});
  table.emplace("stablehlo.sort", OpRules{&verifySort, &sameAsOperandsInfer});
  table.emplace("stablehlo.while", OpRules{&verifyWhile, &sameAsOperandsInfer});
  table.emplace("stablehlo.if", OpRules{nullptr, &verifyConditional});
  table.emplace("stablehlo.case", OpRules{nullptr, &verifyConditional});
  table.emplace("stablehlo.map", OpRules{&mapEntry, &mapInfer});
}

} // namespace shardscope::verify::detail
