// Formats of the ops StableHLO's interpreter tests are written in: the `check` dialect
// (stablehlo/tests/CheckOps.td) and the `interpreter` dialect (stablehlo/reference/
// InterpreterOps.td). Only parsed in their short forms; printed generically.
#include "core/io/mlir/detail/op_format_helpers.h"

#include <cstdlib>

namespace shardscope::io::mlir::detail {

using ir::Attribute;
using ir::ElementType;
using ir::Type;

namespace {

// A bare number after `key =` (not `parseAttribute`, which would take a following `: type` as
// the number's own type).
bool parseNumber(Parser& p, double& value, bool requireInteger) {
  bool negative = p.consumeIf(TokenKind::Minus);
  const Token num = p.tok();
  if (!num.is(TokenKind::Integer) && !(num.is(TokenKind::Float) && !requireInteger))
    return p.emitError(requireInteger ? "expected integer value" : "expected float value");
  p.consume();
  value = std::strtod(std::string(num.spelling).c_str(), nullptr);
  if (negative)
    value = -value;
  return true;
}

// `, key = <number>` when the next tokens are `, key`; `present` tells whether it was written.
bool parseOptionalKeyedNumber(Parser& p, std::string_view key, OperationState& s,
                              const char* attr, Type type, bool& present) {
  present = false;
  if (!p.tok().is(TokenKind::Comma))
    return true;
  p.consume();
  double v = 0;
  if (!p.parseKeywordEqual(key) || !parseNumber(p, v, ir::isIntegerElement(type.elementType())))
    return false;
  present = true;
  s.addAttr(attr, ir::isIntegerElement(type.elementType())
                      ? Attribute::integer(static_cast<int64_t>(v), type)
                      : Attribute::floating(v, type));
  return true;
}

// Adds the `{...}` entries as the op's attributes (all of them inherent: the check ops have no
// discardable attributes of their own).
bool parseCheckAttrDict(Parser& p, OperationState& s) {
  std::vector<ir::NamedAttribute> attrs;
  if (!p.parseOptionalAttrDict(attrs))
    return false;
  for (auto& a : attrs)
    s.addAttr(a.name, Attribute(a.value), /*inherent=*/true);
  return true;
}

// `: type` (one type for every operand) or `: type, type` (one per operand).
bool parseOperandTypes(Parser& p, OperationState& s, const std::vector<UnresolvedOperand>& ops) {
  std::vector<Type> types;
  if (!p.expect(TokenKind::Colon, ":") || !p.parseTypeList(types))
    return false;
  if (types.size() == 1 && ops.size() > 1)
    types.assign(ops.size(), types[0]);
  return p.resolveOperands(ops, types, s.operands);
}

// `%lhs, %rhs (, tolerance = 0.1)? {attrs} : type` (expect_eq, expect_almost_eq).
bool parseExpectPair(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> ops(2);
  if (!p.parseOperand(ops[0]) || !p.expect(TokenKind::Comma, ",") || !p.parseOperand(ops[1]))
    return false;
  bool present = false;
  if (s.name == "check.expect_almost_eq" &&
      !parseOptionalKeyedNumber(p, "tolerance", s, "tolerance", Type::scalar(ElementType::F64),
                                present))
    return false;
  return parseCheckAttrDict(p, s) && parseOperandTypes(p, s, ops);
}

// `%lhs, dense<...> : type (, tolerance = 0.1)? {attrs}` (expect_eq_const,
// expect_almost_eq_const): the operand has the type of the constant.
bool parseExpectConst(Parser& p, OperationState& s) {
  UnresolvedOperand lhs;
  Attribute value;
  if (!p.parseOperand(lhs) || !p.expect(TokenKind::Comma, ",") || !p.parseAttribute(value))
    return false;
  Type type;
  if (const auto* dense = value.as<ir::DenseElementsAttr>())
    type = dense->type;
  if (!type)
    return p.emitError("expected a dense elements attribute");
  s.addAttr("value", value, /*inherent=*/true);
  bool present = false;
  if (s.name == "check.expect_almost_eq_const" &&
      !parseOptionalKeyedNumber(p, "tolerance", s, "tolerance", Type::scalar(ElementType::F64),
                                present))
    return false;
  if (!parseCheckAttrDict(p, s))
    return false;
  s.operands.resize(1);
  return p.resolveOperand(lhs, type, s.operands[0]);
}

// `%actual, %expected, max_ulp_difference = N (, min_ulp_difference = M)? : {attrs} type, type`.
bool parseExpectClose(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> ops(2);
  if (!p.parseOperand(ops[0]) || !p.expect(TokenKind::Comma, ",") || !p.parseOperand(ops[1]))
    return false;
  Type ui64 = Type::scalar(ElementType::UI64);
  bool present = false;
  if (!parseOptionalKeyedNumber(p, "max_ulp_difference", s, "max_ulp_difference", ui64, present))
    return false;
  if (!present)
    return p.emitError("expected 'max_ulp_difference'");
  if (!parseOptionalKeyedNumber(p, "min_ulp_difference", s, "min_ulp_difference", ui64, present))
    return false;
  std::vector<Type> types;
  if (!p.expect(TokenKind::Colon, ":") || !parseCheckAttrDict(p, s) || !p.parseTypeList(types))
    return false;
  if (types.size() == 1)
    types.assign(2, types[0]);
  return p.resolveOperands(ops, types, s.operands);
}

// `%expected, probe_id = "p" (, iter = N)? {attrs} : type`.
bool parseExpectSerializedEq(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> ops(1);
  std::string probe;
  if (!p.parseOperand(ops[0]) || !p.expect(TokenKind::Comma, ",") ||
      !p.parseKeywordEqual("probe_id") || !p.parseString(probe))
    return false;
  s.addAttr("probe_id", Attribute::string(probe), /*inherent=*/true);
  bool present = false;
  if (!parseOptionalKeyedNumber(p, "iter", s, "iteration", Type::scalar(ElementType::UI32),
                                present))
    return false;
  return parseCheckAttrDict(p, s) && parseOperandTypes(p, s, ops);
}

// `interpreter.print %x {attrs} : type`.
bool parsePrint(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> ops(1);
  return p.parseOperand(ops[0]) && parseCheckAttrDict(p, s) && parseOperandTypes(p, s, ops);
}

// `interpreter.probe %x, probe_id = "p" {attrs} : type`; the result has the operand's type.
bool parseProbe(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> ops(1);
  std::string probe;
  if (!p.parseOperand(ops[0]) || !p.expect(TokenKind::Comma, ",") ||
      !p.parseKeywordEqual("probe_id") || !p.parseString(probe))
    return false;
  s.addAttr("probe_id", Attribute::string(probe), /*inherent=*/true);
  if (!parseCheckAttrDict(p, s) || !parseOperandTypes(p, s, ops))
    return false;
  s.resultTypes.push_back(s.operands[0]->type());
  return true;
}

} // namespace

void registerCheckFormats(const AddFormat& add) {
  add({"check.expect_eq", parseExpectPair, nullptr});
  add({"check.expect_almost_eq", parseExpectPair, nullptr, {"tolerance"}});
  add({"check.expect_eq_const", parseExpectConst, nullptr, {"value"}});
  add({"check.expect_almost_eq_const", parseExpectConst, nullptr, {"value", "tolerance"}});
  add({"check.expect_close", parseExpectClose, nullptr,
       {"max_ulp_difference", "min_ulp_difference"}});
  add({"check.expect_serialized_eq", parseExpectSerializedEq, nullptr, {"probe_id", "iteration"}});
  add({"interpreter.print", parsePrint, nullptr});
  add({"interpreter.probe", parseProbe, nullptr, {"probe_id"}});
}

} // namespace shardscope::io::mlir::detail
