// Pretty forms of the CHLO ops JAX prints (`chlo.erf_inv %0 : tensor<4xf32> -> tensor<4xf32>`,
// `chlo.top_k(%0, k = 3) : ...`, `chlo.scan(%0) inits(%1) dimension=0 {...} : ...`), following
// the assembly formats of StableHLO's ChloOps.td and ChloOps.cpp (`ScanOp::parse`). The
// IR does not model CHLO: these ops load and print in MLIR's generic form (`sdy_opt` does not
// register the CHLO dialect, so the generic form is what it can read back), and the analyses treat
// them as opaque ops.
#include "core/io/mlir/op_formats_stablehlo.h"

namespace shardscope::io::mlir::detail {

namespace {

using ir::Attribute;
using ir::Operation;
using ir::Type;

// `$operand attr-dict : type($operand) -> type($result)`.
bool parseUnary(Parser& p, OperationState& s) {
  UnresolvedOperand operand;
  Type in, out;
  if (!p.parseOperand(operand) || !shlo::parseAttrDict(p, s) || !p.expect(TokenKind::Colon, ":") ||
      !p.parseType(in) || !p.expect(TokenKind::Arrow, "->") || !p.parseType(out))
    return false;
  s.resultTypes = {out};
  return p.resolveOperands({operand}, {in}, s.operands);
}


// `$a, $b[, $c] attr-dict : (types) -> type` when `parenthesized`, else `: types -> type`.
template <size_t N, bool parenthesized> bool parseNary(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> operands;
  if (!p.parseOperandList(operands))
    return false;
  if (operands.size() != N)
    return p.emitError(s.loc, "expected " + std::to_string(N) + " operands, got " +
                                  std::to_string(operands.size()));
  if (!shlo::parseAttrDict(p, s) || !p.expect(TokenKind::Colon, ":"))
    return false;
  if (parenthesized && !p.expect(TokenKind::LParen, "("))
    return false;
  std::vector<Type> inputs;
  if (!p.parseTypeList(inputs))
    return false;
  if (parenthesized && !p.expect(TokenKind::RParen, ")"))
    return false;
  Type out;
  if (!p.expect(TokenKind::Arrow, "->") || !p.parseType(out))
    return false;
  s.resultTypes = {out};
  return p.resolveOperands(operands, inputs, s.operands);
}


// `(%operand, k = 3[, is_stable = false]) attr-dict : type -> (values, indices)`.
bool parseTopK(Parser& p, OperationState& s) {
  UnresolvedOperand operand;
  int64_t k = 0;
  if (!p.expect(TokenKind::LParen, "(") || !p.parseOperand(operand) ||
      !p.expect(TokenKind::Comma, ",") || !p.parseKeywordEqual("k") || !p.parseInteger(k))
    return false;
  s.addAttr("k", shlo::i64Attr(k));
  if (p.consumeIf(TokenKind::Comma)) {
    bool stable = true;
    if (!p.parseKeywordEqual("is_stable") || !p.parseBool(stable))
      return false;
    s.addAttr("is_stable", Attribute::boolean(stable));
  }
  if (!p.expect(TokenKind::RParen, ")") || !shlo::parseAttrDict(p, s) ||
      !p.expect(TokenKind::Colon, ":"))
    return false;
  Type in;
  std::vector<Type> results;
  if (!p.parseType(in) || !p.expect(TokenKind::Arrow, "->") || !p.expect(TokenKind::LParen, "(") ||
      !p.parseTypeList(results) || !p.expect(TokenKind::RParen, ")"))
    return false;
  if (results.size() != 2)
    return p.emitError(s.loc, "'chlo.top_k' has 2 results, got " + std::to_string(results.size()));
  s.resultTypes = results;
  return p.resolveOperands({operand}, {in}, s.operands);
}


// `array<i32: a, b>`, the segment sizes of an op with variadic operand or result groups.
Attribute segmentSizes(int64_t first, int64_t second) {
  auto storage = std::make_shared<ir::DenseArrayAttr>();
  storage->element = ir::ElementType::I32;
  storage->ints = {first, second};
  return Attribute(std::shared_ptr<const ir::AttrStorage>(std::move(storage)));
}

// `(%a, %b)`, possibly empty.
bool parseParenOperands(Parser& p, std::vector<UnresolvedOperand>& operands) {
  if (!p.expect(TokenKind::LParen, "("))
    return false;
  if (p.consumeIf(TokenKind::RParen))
    return true;
  return p.parseOperandList(operands) && p.expect(TokenKind::RParen, ")");
}

// `(%inputs) inits (%inits) dimension = N [attributes {...}] { region } : (types) -> types`, as
// `ScanOp::parse`: the region is isolated from above, the operand types are the inputs' then the
// inits', and the last results (as many as there are inits) are the carries.
bool parseScan(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> inputs, inits;
  int64_t dimension = 0;
  if (!parseParenOperands(p, inputs) || !p.expectKeyword("inits") ||
      !parseParenOperands(p, inits) || !p.parseKeywordEqual("dimension") ||
      !p.parseInteger(dimension))
    return false;
  if (p.consumeKeywordIf("attributes") &&
      (!p.tok().is(TokenKind::LBrace) ? p.emitError("expected '{'") : !shlo::parseAttrDict(p, s)))
    return false;
  auto body = std::make_unique<ir::Region>(nullptr);
  if (!p.parseRegion(*body, {}, /*isolated=*/true))
    return false;
  s.regions.push_back(std::move(body));
  std::vector<Type> operandTypes, results;
  if (!p.expect(TokenKind::Colon, ":") || !p.parseFunctionType(operandTypes, results))
    return false;
  if (operandTypes.size() != inputs.size() + inits.size())
    return p.emitError(s.loc, "operand types must match the number of inputs and inits");
  if (results.size() < inits.size())
    return p.emitError(s.loc, "not enough result types to cover the required carries");
  std::vector<UnresolvedOperand> operands = inputs;
  operands.insert(operands.end(), inits.begin(), inits.end());
  auto numInputs = static_cast<int64_t>(inputs.size());
  auto numInits = static_cast<int64_t>(inits.size());
  s.addAttr("dimension", shlo::i64Attr(dimension));
  s.addAttr("operandSegmentSizes", segmentSizes(numInputs, numInits));
  s.addAttr("resultSegmentSizes",
            segmentSizes(static_cast<int64_t>(results.size()) - numInits, numInits));
  s.resultTypes = results;
  return p.resolveOperands(operands, operandTypes, s.operands);
}

} // namespace

namespace shlo {

void registerChloFormats(const AddFormat& add) {
  for (std::string_view name :
       {"chlo._asin_acos_kernel", "chlo.acos", "chlo.acosh", "chlo.asin", "chlo.asinh",
        "chlo.atan", "chlo.atanh", "chlo.bessel_i1e", "chlo.conj", "chlo.cosh", "chlo.sinh",
        "chlo.tan", "chlo.digamma", "chlo.erf", "chlo.erf_inv", "chlo.erfc", "chlo.is_inf",
        "chlo.is_neg_inf", "chlo.is_pos_inf", "chlo.lgamma", "chlo.square"})
    add({name, parseUnary, nullptr, {}});
  for (std::string_view name :
       {"chlo.broadcast_add", "chlo.broadcast_atan2", "chlo.broadcast_divide",
        "chlo.broadcast_maximum", "chlo.broadcast_minimum", "chlo.broadcast_multiply",
        "chlo.broadcast_next_after", "chlo.broadcast_polygamma", "chlo.broadcast_power",
        "chlo.broadcast_remainder", "chlo.broadcast_shift_left",
        "chlo.broadcast_shift_right_arithmetic", "chlo.broadcast_shift_right_logical",
        "chlo.broadcast_subtract", "chlo.broadcast_zeta", "chlo.broadcast_and",
        "chlo.broadcast_or", "chlo.broadcast_xor", "chlo.broadcast_complex",
        "chlo.broadcast_compare"})
    add({name, parseNary<2, true>, nullptr,
         {"broadcast_dimensions", "comparison_direction", "compare_type"}});
  add({"chlo.broadcast_select", parseNary<3, true>, nullptr, {}});
  for (std::string_view name : {"chlo.next_after", "chlo.polygamma", "chlo.zeta", "chlo.mulhi"})
    add({name, parseNary<2, false>, nullptr, {}});
  add({"chlo.top_k", parseTopK, nullptr, {"k", "is_stable"}});
  add({"chlo.ragged_dot", nullptr, nullptr, {"ragged_dot_dimension_numbers", "precision_config"}});
  add({"chlo.scan", parseScan, nullptr,
       {"dimension", "scan_dim_size", "is_reverse", "is_associative", "operandSegmentSizes",
        "resultSegmentSizes"},
       nullptr, nullptr, /*isolatedFromAbove=*/true});
}

} // namespace shlo

} // namespace shardscope::io::mlir::detail
