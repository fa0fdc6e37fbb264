// StableHLO ops with regions in their pretty forms: reduce and while.
#include "core/io/mlir/op_formats_stablehlo.h"

#include <algorithm>

namespace shardscope::io::mlir::detail::shlo {

using ir::Attribute;
using ir::Operation;
using ir::Type;

namespace {

// The reducers that the compact form `applies`: commutative binary StableHLO ops.
bool isCompactReducer(std::string_view name) {
  static constexpr std::string_view kOps[] = {
      "stablehlo.add", "stablehlo.multiply", "stablehlo.maximum", "stablehlo.minimum",
      "stablehlo.and", "stablehlo.or",       "stablehlo.xor"};
  return std::find(std::begin(kOps), std::end(kOps), name) != std::end(kOps);
}

// --- reduce ---------------------------------------------------------------------------------

// StableHLO prints `applies <op>` when the body is one commutative binary op of the scalar
// element type, applied to the two block arguments in order, whose result is returned.
bool isEligibleForCompactPrint(const Operation& op) {
  const ir::Block& block = op.region(0).front();
  if (block.ops().size() != 2 || block.numArguments() != 2 || op.numOperands() == 0)
    return false;
  const Operation& inner = *block.ops().front();
  const Operation& ret = *block.back();
  if (!isCompactReducer(inner.name()) || inner.numOperands() != 2 || inner.numResults() != 1 ||
      inner.numRegions() != 0 || !ret.is("stablehlo.return"))
    return false;
  Type input = op.operand(0)->type();
  Type type = inner.result(0)->type();
  if (!input.isTensor() || type != Type::tensor({}, input.elementType()) ||
      inner.operand(0)->type() != type || inner.operand(1)->type() != type)
    return false;
  if (inner.operand(0) != block.argument(0) || inner.operand(1) != block.argument(1))
    return false;
  return ret.numOperands() == 1 && ret.operand(0) == inner.result(0);
}

bool parseReduceOperands(Parser& p, std::vector<UnresolvedOperand>& operands) {
  std::vector<UnresolvedOperand> inits;
  do {
    if (!p.consumeIf(TokenKind::LParen))
      break;
    UnresolvedOperand input, init;
    if (!p.parseOperand(input) || !p.expectKeyword("init") || !p.expect(TokenKind::Colon, ":") ||
        !p.parseOperand(init) || !p.expect(TokenKind::RParen, ")"))
      return false;
    operands.push_back(std::move(input));
    inits.push_back(std::move(init));
  } while (p.consumeIf(TokenKind::Comma));
  operands.insert(operands.end(), inits.begin(), inits.end());
  return true;
}

// `across dimensions = [1] attr-dict : (inputs) -> results`.
bool parseReduceSignature(Parser& p, OperationState& s, const std::vector<UnresolvedOperand>& ops,
                          std::vector<Type>& inputs) {
  std::vector<int64_t> dims;
  if (!p.expectKeyword("across") || !p.parseKeywordEqual("dimensions") || !p.parseIntegerList(dims))
    return false;
  s.addAttr("dimensions", Attribute::denseI64Array(std::move(dims)));
  support::SourceLocation typeLoc;
  if (!parseAttrDict(p, s) || !p.expect(TokenKind::Colon, ":"))
    return false;
  typeLoc = p.loc();
  if (!p.parseFunctionType(inputs, s.resultTypes))
    return false;
  if (inputs.empty())
    return p.emitError(typeLoc, "input types missing in reduce-op function type");
  return p.resolveOperands(ops, inputs, s.operands);
}

// The compact form builds the body the printer elides: `%r = op %a, %b; return %r`.
bool parseCompactReduce(Parser& p, OperationState& s, const std::vector<UnresolvedOperand>& ops) {
  support::SourceLocation nameLoc = p.loc();
  std::string inner(p.tok().spelling);
  if (!p.tok().is(TokenKind::BareIdentifier) || !isCompactReducer(inner))
    return p.emitError(nameLoc, "expected the inner-op to be a commutative binary-op from the "
                                "stablehlo dialect, with zero region, producing single result");
  p.consume();
  std::vector<Type> inputs;
  if (!parseReduceSignature(p, s, ops, inputs))
    return false;
  if (!inputs[0].isTensor())
    return p.emitError(nameLoc, "expected a tensor input");
  Type scalar = Type::tensor({}, inputs[0].elementType());
  auto region = std::make_unique<ir::Region>(nullptr);
  ir::Block& block = region->addBlock();
  ir::Value* args[2] = {block.addArgument(scalar), block.addArgument(scalar)};
  Type resultType[1] = {scalar};
  ir::Operation* op = block.push_back(Operation::create(inner, args, resultType, s.loc));
  ir::Value* result[1] = {op->result(0)};
  block.push_back(Operation::create("stablehlo.return", result, {}, s.loc));
  s.regions.push_back(std::move(region));
  return true;
}

// `reducer(%a: t, %c: t) (%b: t, %d: t) { ... }`: one pair per input, element then accumulator.
bool parseReducerRegion(Parser& p, OperationState& s) {
  std::vector<BlockArgDef> elements, accumulators;
  if (!p.expectKeyword("reducer"))
    return false;
  while (p.tok().is(TokenKind::LParen)) {
    std::vector<BlockArgDef> pair;
    support::SourceLocation pairLoc = p.loc();
    if (!p.parseArgumentList(pair, false, nullptr))
      return false;
    if (pair.size() != 2)
      return p.emitError(pairLoc, "expected a pair of reducer arguments");
    elements.push_back(pair[0]);
    accumulators.push_back(pair[1]);
  }
  elements.insert(elements.end(), accumulators.begin(), accumulators.end());
  auto region = std::make_unique<ir::Region>(nullptr);
  if (!p.parseRegion(*region, elements, /*isolated=*/false))
    return false;
  s.regions.push_back(std::move(region));
  return true;
}

bool parseReduce(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> operands;
  if (!parseReduceOperands(p, operands))
    return false;
  if (p.consumeKeywordIf("applies"))
    return parseCompactReduce(p, s, operands);
  std::vector<Type> inputs;
  return parseReduceSignature(p, s, operands, inputs) && parseReducerRegion(p, s);
}

void printReducerArg(Printer& p, const ir::Value* arg) {
  p.printOperand(arg);
  p << ": ";
  p.printType(arg->type());
}

void printReduce(Printer& p, const Operation& op) {
  std::optional<std::vector<int64_t>> dims = intList(op.attr("dimensions"));
  unsigned n = op.numOperands() / 2;
  if (!dims || op.numOperands() % 2 != 0 || op.numRegions() != 1 || op.region(0).empty() ||
      op.region(0).front().numArguments() != 2 * n)
    return printGenericBody(p, op);
  for (unsigned i = 0; i < n; ++i) {
    p << (i ? ", (" : "(");
    p.printOperand(op.operand(i));
    p << " init: ";
    p.printOperand(op.operand(i + n));
    p << ")";
  }
  bool compact = isEligibleForCompactPrint(op);
  if (compact)
    p << " applies " << op.region(0).front().ops().front()->name();
  p << " across dimensions = ";
  printIntList(p, *dims);
  printAttrDict(p, op, {"dimensions"});
  p << " : ";
  p.printFunctionalType(op);
  if (compact)
    return;
  // `printNewline` then ` reducer`: one space past the op's indentation, as StableHLO prints.
  p.newline();
  p << " reducer";
  const ir::Block& block = op.region(0).front();
  for (unsigned i = 0; i < n; ++i) {
    p << "(";
    printReducerArg(p, block.argument(i));
    p << ", ";
    printReducerArg(p, block.argument(i + n));
    p << ") ";
  }
  p << " ";
  p.printRegion(op.region(0), /*printEntryArgs=*/false);
}

// --- while ----------------------------------------------------------------------------------

// `stablehlo.while(%iterArg = %a, %iterArg_0 = %b) : t1, t2 attributes {...}
//  cond { ... } do { ... }`: both regions take the loop-carried values as `%iterArg...`.
bool parseWhile(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> names, operands;
  if (!p.expect(TokenKind::LParen, "("))
    return false;
  if (!p.tok().is(TokenKind::RParen)) {
    do {
      UnresolvedOperand name, operand;
      if (!p.parseOperand(name) || !p.expect(TokenKind::Equal, "=") || !p.parseOperand(operand))
        return false;
      names.push_back(std::move(name));
      operands.push_back(std::move(operand));
    } while (p.consumeIf(TokenKind::Comma));
  }
  if (!p.expect(TokenKind::RParen, ")"))
    return false;
  std::vector<Type> types;
  if (!operands.empty() && (!p.expect(TokenKind::Colon, ":") || !p.parseTypeList(types)))
    return false;
  if (!p.resolveOperands(operands, types, s.operands))
    return false;
  s.resultTypes = types;
  if (p.consumeKeywordIf("attributes") &&
      (!p.tok().is(TokenKind::LBrace) ? p.emitError("expected '{'") : !parseAttrDict(p, s)))
    return false;
  std::vector<BlockArgDef> args;
  for (size_t i = 0; i < names.size(); ++i)
    args.push_back({names[i], types[i]});
  for (const char* keyword : {"cond", "do"}) {
    auto region = std::make_unique<ir::Region>(nullptr);
    if (!p.expectKeyword(keyword) || !p.parseRegion(*region, args, /*isolated=*/false))
      return false;
    s.regions.push_back(std::move(region));
  }
  return true;
}

void printWhile(Printer& p, const Operation& op) {
  if (op.numRegions() != 2 || op.region(0).empty() ||
      op.region(0).front().numArguments() != op.numOperands())
    return printGenericBody(p, op);
  const ir::Block& cond = op.region(0).front();
  p << "(";
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    p << (i ? ", " : "");
    p.printOperand(cond.argument(i));
    p << " = ";
    p.printOperand(op.operand(i));
  }
  p << ")";
  if (op.numOperands() > 0) {
    p << " : ";
    p.printTypes(ir::operandTypes(op));
  }
  p.printOptionalAttrDict(op, {}, /*withKeyword=*/true);
  p.newline();
  p << " cond ";
  p.printRegion(op.region(0), /*printEntryArgs=*/false);
  p << " do ";
  p.printRegion(op.region(1), /*printEntryArgs=*/false);
}

std::string_view iterArgName(const Operation&, unsigned) { return "iterArg"; }

} // namespace

void registerRegionFormats(const AddFormat& add) {
  add({"stablehlo.reduce", parseReduce, printReduce, {"dimensions"}});
  add({"stablehlo.while", parseWhile, printWhile, {}, nullptr, iterArgName});
}

} // namespace shardscope::io::mlir::detail::shlo
