// Helpers shared by the StableHLO op formats: attribute storage, small parsers and printers.
#include "core/io/mlir/op_formats_stablehlo.h"

#include <algorithm>
#include <cctype>

namespace shardscope::io::mlir::detail::shlo {

using ir::Attribute;
using ir::ElementType;
using ir::Operation;
using ir::Type;

// --- Attribute values -----------------------------------------------------------------------

Attribute i64Attr(int64_t v) { return Attribute::integer(v, Type::scalar(ElementType::I64)); }

Attribute i32Attr(int64_t v) { return Attribute::integer(v, Type::scalar(ElementType::I32)); }

Attribute enumAttr(std::string_view kind, std::string_view value) {
  return Attribute::opaque("#stablehlo<" + std::string(kind) + " " + std::string(value) + ">");
}

std::string enumValue(const Attribute& attr) {
  const auto* opaque = attr.as<ir::OpaqueAttr>();
  if (!opaque || !opaque->text.starts_with("#stablehlo<") || !opaque->text.ends_with(">"))
    return {};
  std::string_view text = opaque->text;
  text.remove_suffix(1);
  size_t space = text.rfind(' ');
  return space == std::string_view::npos ? std::string() : std::string(text.substr(space + 1));
}

std::optional<std::vector<int64_t>> intList(const Attribute& attr) {
  if (const auto* a = attr.as<ir::DenseArrayAttr>()) {
    if (ir::isFloatElement(a->element))
      return std::nullopt;
    return a->ints;
  }
  if (const auto* d = attr.as<ir::DenseElementsAttr>()) {
    if (!d->type.isTensor() || !ir::isIntegerElement(d->type.elementType()))
      return std::nullopt;
    std::vector<int64_t> values;
    for (int64_t i = 0; i < d->numElements(); ++i)
      values.push_back(d->intAt(i));
    return values;
  }
  if (const auto* a = attr.as<ir::ArrayAttr>()) {
    std::vector<int64_t> values;
    for (const Attribute& e : a->elements) {
      std::optional<int64_t> v = intValue(e);
      if (!v)
        return std::nullopt;
      values.push_back(*v);
    }
    return values;
  }
  return std::nullopt;
}

std::optional<int64_t> intValue(const Attribute& attr) {
  if (const auto* i = attr.as<ir::IntegerAttr>())
    return i->value;
  return std::nullopt;
}

// --- Parsing --------------------------------------------------------------------------------

bool parseAttrDict(Parser& p, OperationState& s) {
  std::vector<ir::NamedAttribute> attrs;
  if (!p.parseOptionalAttrDict(attrs))
    return false;
  const OpFormat* format = lookupOpFormat(s.name);
  for (ir::NamedAttribute& a : attrs) {
    bool inherent = format && std::find(format->inherentAttrs.begin(), format->inherentAttrs.end(),
                                        a.name) != format->inherentAttrs.end();
    s.addAttr(std::move(a.name), Attribute(a.value), inherent);
  }
  return true;
}

bool parseEnumCase(Parser& p, std::string_view what, const std::vector<std::string_view>& cases,
                   std::string& value) {
  std::string list;
  for (std::string_view c : cases)
    list += (list.empty() ? "" : ", ") + std::string(c);
  const Token& t = p.tok();
  if (!t.is(TokenKind::BareIdentifier) ||
      std::find(cases.begin(), cases.end(), t.spelling) == cases.end())
    return p.emitError("expected " + std::string(what) + " to be one of: " + list);
  value = std::string(t.spelling);
  p.consume();
  return true;
}

bool parseKeyedList(Parser& p, std::string_view key, OperationState& s, const char* attr) {
  std::vector<int64_t> values;
  if (!p.parseKeywordEqual(key) || !p.parseIntegerList(values))
    return false;
  s.addAttr(attr, Attribute::denseI64Array(std::move(values)));
  return true;
}

bool parseOperandsWithCommas(Parser& p, std::vector<UnresolvedOperand>& operands) {
  while (p.tok().is(TokenKind::PercentIdentifier)) {
    UnresolvedOperand o;
    if (!p.parseOperand(o) || !p.expect(TokenKind::Comma, ","))
      return false;
    operands.push_back(std::move(o));
  }
  return true;
}

bool parseSameOperandsAndResultType(Parser& p, OperationState& s,
                                    const std::vector<UnresolvedOperand>& operands, size_t count) {
  if (operands.size() != count)
    return p.emitError(std::to_string(operands.size()) + " operands present, but expected " +
                       std::to_string(count));
  if (!p.expect(TokenKind::Colon, ":"))
    return false;
  support::SourceLocation typeLoc = p.loc();
  ir::Type t;
  if (!p.parseType(t))
    return false;
  if (t.kind() != Type::Kind::Function) {
    // A bare type: every operand and the result have it.
    s.resultTypes.push_back(t);
    return p.resolveOperands(operands, std::vector<Type>(operands.size(), t), s.operands);
  }
  std::vector<Type> inputs(t.elements().begin(), t.elements().end());
  if (inputs.size() != operands.size())
    return p.emitError(typeLoc, std::to_string(operands.size()) +
                                    " operands present, but expected " +
                                    std::to_string(inputs.size()));
  if (t.results().size() != 1)
    return p.emitError(typeLoc, "expected single output");
  s.resultTypes.push_back(t.results()[0]);
  return p.resolveOperands(operands, inputs, s.operands);
}

// --- Printing -------------------------------------------------------------------------------

void printIntList(Printer& p, std::span<const int64_t> values) {
  p << "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      p << ", ";
    p << std::to_string(values[i]);
  }
  p << "]";
}

namespace {

// Default values of properties that custom forms leave out of the attribute dictionary when
// set to them (ODS `DefaultValuedOptionalAttr`), as printed.
struct DefaultAttr {
  std::string_view op, name, value;
};
constexpr DefaultAttr kDefaults[] = {
    {"stablehlo.custom_call", "has_side_effect", "false"},
    {"stablehlo.custom_call", "api_version", "1 : i32"},
    {"stablehlo.custom_call", "called_computations", "[]"},
    {"stablehlo.custom_call", "output_operand_aliases", "[]"},
    {"stablehlo.composite", "composite_attributes", "{}"},
    {"stablehlo.composite", "version", "0 : i32"},
};

bool isDefaultValued(const Operation& op, const ir::NamedAttribute& a) {
  for (const DefaultAttr& d : kDefaults)
    if (op.name() == d.op && a.name == d.name)
      return Attribute(a.value).str() == d.value;
  return false;
}

bool isBareName(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
  });
}

} // namespace

void printAttrDict(Printer& p, const Operation& op, const std::vector<std::string_view>& elided) {
  bool first = true;
  for (const ir::NamedAttribute& a : op.attributes()) {
    if (std::find(elided.begin(), elided.end(), a.name) != elided.end() || isDefaultValued(op, a))
      continue;
    p << (first ? " {" : ", ");
    first = false;
    if (isBareName(a.name))
      p << a.name;
    else
      ir::Attribute::string(a.name).print(p.out());
    if (a.value->kind != Attribute::Kind::Unit) {
      p << " = ";
      Attribute(a.value).print(p.out());
    }
  }
  if (!first)
    p << "}";
}

void printGenericBody(Printer& p, const Operation& op) {
  size_t start = p.out().size();
  p.printGeneric(op);
  p.out().erase(start, op.name().size() + 2); // the quoted name
}

void printSameOperandsAndResultType(Printer& p, const Operation& op) {
  p.printSameOrFunctionalType(op);
}

} // namespace shardscope::io::mlir::detail::shlo
