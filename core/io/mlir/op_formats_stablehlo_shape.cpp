// StableHLO ops whose pretty forms spell attributes after the operands: `dims = [...]`,
// `dim = 0`, `type =  FFT`, slices `[0:4:2]`, comparisons `LT`.
#include "core/support/parse_number.h"
#include "core/io/mlir/op_formats_stablehlo.h"

#include <algorithm>
#include <cctype>

namespace shardscope::io::mlir::detail::shlo {

using ir::Attribute;
using ir::Operation;
using ir::Type;

namespace {

// --- Keyed formats --------------------------------------------------------------------------
// Most of these ops read `%a, %b, key = value, key = value attr-dict : types`; a table describes
// them so one parser and one printer serve all.

enum class ParamKind { List, Int, Enum, Str };
enum class TypeStyle { Functional, Same, ResultOnly };

struct KeyedParam {
  std::string_view key;
  const char* attr;
  ParamKind kind;
  std::string_view enumKind = {};
  std::vector<std::string_view> cases = {};
};

struct KeyedFormat {
  std::string_view op;
  int numOperands; // -1: one or more
  std::vector<KeyedParam> params;
  TypeStyle types = TypeStyle::Functional;
};

const std::vector<KeyedFormat>& keyedFormats() {
  using enum ParamKind;
  static const std::vector<KeyedFormat> formats = {
      {"stablehlo.broadcast_in_dim", 1, {{"dims", "broadcast_dimensions", List}}},
      {"stablehlo.dynamic_broadcast_in_dim", 2, {{"dims", "broadcast_dimensions", List}}},
      {"stablehlo.broadcast", 1, {{"sizes", "broadcast_sizes", List}}},
      {"stablehlo.transpose", 1, {{"dims", "permutation", List}}},
      {"stablehlo.reverse", 1, {{"dims", "dimensions", List}}, TypeStyle::Same},
      {"stablehlo.concatenate", -1, {{"dim", "dimension", Int}}},
      {"stablehlo.pad",
       2,
       {{"low", "edge_padding_low", List},
        {"high", "edge_padding_high", List},
        {"interior", "interior_padding", List}}},
      {"stablehlo.dynamic_slice", -1, {{"sizes", "slice_sizes", List}}},
      {"stablehlo.fft",
       1,
       {{"type", "fft_type", Enum, "fft_type", {"FFT", "IFFT", "RFFT", "IRFFT"}},
        {"length", "fft_length", List}}},
      {"stablehlo.rng_bit_generator",
       1,
       {{"algorithm", "rng_algorithm", Enum, "rng_algorithm", {"DEFAULT", "THREE_FRY", "PHILOX"}}}},
      {"stablehlo.rng",
       3,
       {{"distribution", "rng_distribution", Enum, "rng_distribution", {"UNIFORM", "NORMAL"}}}},
      {"stablehlo.get_dimension_size", 1, {{"dim", "dimension", Int}}},
      {"stablehlo.set_dimension_size", 2, {{"dim", "dimension", Int}}},
      {"stablehlo.einsum", 2, {{"config", "einsum_config", Str}}},
      {"stablehlo.unary_einsum", 1, {{"config", "einsum_config", Str}}},
      {"stablehlo.dynamic_iota", 1, {{"dim", "iota_dimension", Int}}},
      {"stablehlo.iota", 0, {{"dim", "iota_dimension", Int}}, TypeStyle::ResultOnly},
  };
  return formats;
}

const KeyedFormat* keyedFormat(std::string_view op) {
  for (const KeyedFormat& f : keyedFormats())
    if (f.op == op)
      return &f;
  return nullptr;
}

bool parseKeyedValue(Parser& p, const KeyedParam& param, OperationState& s) {
  if (!p.parseKeywordEqual(param.key))
    return false;
  switch (param.kind) {
  case ParamKind::List: {
    std::vector<int64_t> values;
    if (!p.parseIntegerList(values))
      return false;
    s.addAttr(param.attr, Attribute::denseI64Array(std::move(values)));
    return true;
  }
  case ParamKind::Int: {
    int64_t v = 0;
    if (!p.parseInteger(v))
      return false;
    s.addAttr(param.attr, i64Attr(v));
    return true;
  }
  case ParamKind::Enum: {
    std::string value;
    if (!parseEnumCase(p, param.enumKind, param.cases, value))
      return false;
    s.addAttr(param.attr, enumAttr(param.enumKind, value));
    return true;
  }
  case ParamKind::Str: {
    std::string value;
    if (!p.parseString(value))
      return false;
    s.addAttr(param.attr, Attribute::string(std::move(value)));
    return true;
  }
  }
  return false;
}

bool parseKeyedOperands(Parser& p, int count, std::vector<UnresolvedOperand>& operands) {
  if (count < 0)
    return parseOperandsWithCommas(p, operands);
  operands.resize(static_cast<size_t>(count));
  for (UnresolvedOperand& o : operands)
    if (!p.parseOperand(o) || !p.expect(TokenKind::Comma, ","))
      return false;
  return true;
}

bool parseKeyedTypes(Parser& p, OperationState& s, TypeStyle style,
                     const std::vector<UnresolvedOperand>& operands) {
  if (style == TypeStyle::Same)
    return parseSameOperandsAndResultType(p, s, operands, operands.size());
  if (style == TypeStyle::Functional)
    return parseFunctionalTypeFor(p, s, operands);
  Type t;
  if (!p.expect(TokenKind::Colon, ":") || !p.parseType(t))
    return false;
  s.resultTypes.push_back(t);
  return true;
}

bool parseKeyed(Parser& p, OperationState& s) {
  const KeyedFormat* f = keyedFormat(s.name);
  std::vector<UnresolvedOperand> operands;
  if (!parseKeyedOperands(p, f->numOperands, operands))
    return false;
  for (size_t i = 0; i < f->params.size(); ++i)
    if ((i && !p.expect(TokenKind::Comma, ",")) || !parseKeyedValue(p, f->params[i], s))
      return false;
  return parseAttrDict(p, s) && parseKeyedTypes(p, s, f->types, operands);
}

// Prints `key = value`; false when the attribute is missing or malformed.
bool printKeyedValue(Printer& p, const Operation& op, const KeyedParam& param) {
  Attribute a = op.attr(param.attr);
  std::string text;
  if (param.kind == ParamKind::List) {
    std::optional<std::vector<int64_t>> values = intList(a);
    if (!values)
      return false;
    p << param.key << " = ";
    printIntList(p, *values);
    return true;
  }
  if (param.kind == ParamKind::Int) {
    std::optional<int64_t> v = intValue(a);
    if (!v)
      return false;
    text = std::to_string(*v);
  } else if (param.kind == ParamKind::Enum) {
    // The enum attribute prints its own leading space after the format's one.
    text = enumValue(a);
    if (text.empty())
      return false;
    text = " " + text;
  } else {
    if (!a.as<ir::StringAttr>())
      return false;
    text = a.str();
  }
  p << param.key << " = " << text;
  return true;
}

bool printKeyedBody(Printer& p, const Operation& op, const KeyedFormat& f) {
  if (op.numOperands() > 0) {
    p << " ";
    p.printOperands(op.operands());
    p << ",";
  }
  // dynamic_slice prints its start indices through a directive that ODS precedes with a space
  // even when there are none (a rank-0 operand).
  if (op.is("stablehlo.dynamic_slice") && op.numOperands() == 1)
    p << " ";
  for (size_t i = 0; i < f.params.size(); ++i) {
    p << (i ? ", " : " ");
    if (!printKeyedValue(p, op, f.params[i]))
      return false;
  }
  return true;
}

void printKeyed(Printer& p, const Operation& op) {
  const KeyedFormat& f = *keyedFormat(op.name());
  size_t start = p.out().size();
  if (!printKeyedBody(p, op, f)) {
    p.out().resize(start);
    return printGenericBody(p, op);
  }
  std::vector<std::string_view> elided;
  for (const KeyedParam& param : f.params)
    elided.push_back(param.attr);
  printAttrDict(p, op, elided);
  p << " : ";
  if (f.types == TypeStyle::Functional)
    p.printFunctionalType(op);
  else if (f.types == TypeStyle::Same)
    printSameOperandsAndResultType(p, op);
  else
    p.printType(op.result(0)->type());
}

// --- compare --------------------------------------------------------------------------------

// `stablehlo.compare  LT, %a, %b,  FLOAT : (t, t) -> t'`: the enums print their own leading
// space after the format's one, hence the double spaces.
bool parseCompare(Parser& p, OperationState& s) {
  std::string direction, type;
  if (!parseEnumCase(p, "comparison_direction", {"EQ", "NE", "GE", "GT", "LE", "LT"}, direction))
    return false;
  s.addAttr("comparison_direction", enumAttr("comparison_direction", direction));
  std::vector<UnresolvedOperand> operands(2);
  if (!p.expect(TokenKind::Comma, ",") || !p.parseOperand(operands[0]) ||
      !p.expect(TokenKind::Comma, ",") || !p.parseOperand(operands[1]))
    return false;
  if (p.consumeIf(TokenKind::Comma)) {
    if (!parseEnumCase(p, "comparison_type",
                       {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}, type))
      return false;
    s.addAttr("compare_type", enumAttr("comparison_type", type));
  }
  return parseAttrDict(p, s) && parseFunctionalTypeFor(p, s, operands);
}

void printCompare(Printer& p, const Operation& op) {
  std::string direction = enumValue(op.attr("comparison_direction"));
  Attribute typeAttr = op.attr("compare_type");
  std::string type = enumValue(typeAttr);
  if (direction.empty() || op.numOperands() != 2 || (typeAttr && type.empty()))
    return printGenericBody(p, op);
  p << "  " << direction << ", ";
  p.printOperands(op.operands());
  if (!type.empty())
    p << ",  " << type;
  printAttrDict(p, op, {"comparison_direction", "compare_type"});
  p << " : ";
  p.printFunctionalType(op);
}

// --- slice ----------------------------------------------------------------------------------

// `stablehlo.slice %x [0:4, 2:8:2]`: start:limit, with `:stride` only when it is not 1.
bool parseSliceRange(Parser& p, std::vector<int64_t> (&parts)[3]) {
  int64_t start = 0, limit = 0, stride = 1;
  if (!p.parseInteger(start) || !p.expect(TokenKind::Colon, ":") || !p.parseInteger(limit))
    return false;
  if (p.consumeIf(TokenKind::Colon) && !p.parseInteger(stride))
    return false;
  parts[0].push_back(start);
  parts[1].push_back(limit);
  parts[2].push_back(stride);
  return true;
}

bool parseSlice(Parser& p, OperationState& s) {
  UnresolvedOperand operand;
  std::vector<int64_t> parts[3];
  if (!p.parseOperand(operand) || !p.expect(TokenKind::LSquare, "["))
    return false;
  if (!p.tok().is(TokenKind::RSquare)) {
    do {
      if (!parseSliceRange(p, parts))
        return false;
    } while (p.consumeIf(TokenKind::Comma));
  }
  if (!p.expect(TokenKind::RSquare, "]"))
    return false;
  s.addAttr("start_indices", Attribute::denseI64Array(parts[0]));
  s.addAttr("limit_indices", Attribute::denseI64Array(parts[1]));
  s.addAttr("strides", Attribute::denseI64Array(parts[2]));
  return parseAttrDict(p, s) && parseFunctionalTypeFor(p, s, {operand});
}

void printSlice(Printer& p, const Operation& op) {
  auto start = intList(op.attr("start_indices"));
  auto limit = intList(op.attr("limit_indices"));
  auto stride = intList(op.attr("strides"));
  if (!start || !limit || !stride || limit->size() != start->size() ||
      stride->size() != start->size() || op.numOperands() != 1)
    return printGenericBody(p, op);
  p << " ";
  p.printOperand(op.operand(0));
  p << " [";
  for (size_t i = 0; i < start->size(); ++i) {
    p << (i ? ", " : "") << std::to_string((*start)[i]) << ":" << std::to_string((*limit)[i]);
    if ((*stride)[i] != 1)
      p << ":" << std::to_string((*stride)[i]);
  }
  p << "]";
  printAttrDict(p, op, {"start_indices", "limit_indices", "strides"});
  p << " : ";
  p.printFunctionalType(op);
}

// --- cholesky, reduce_precision, composite --------------------------------------------------

// `stablehlo.cholesky %a, lower = true : type`; `lower` is left out when false (its default).
bool parseCholesky(Parser& p, OperationState& s) {
  UnresolvedOperand operand;
  if (!p.parseOperand(operand))
    return false;
  if (p.consumeIf(TokenKind::Comma)) {
    bool lower = false;
    if (!p.parseKeywordEqual("lower") || !p.parseBool(lower))
      return false;
    s.addAttr("lower", Attribute::boolean(lower));
  }
  return parseAttrDict(p, s) && parseSameOperandsAndResultType(p, s, {operand}, 1);
}

void printCholesky(Printer& p, const Operation& op) {
  p << " ";
  p.printOperands(op.operands());
  const auto* lower = op.attr("lower").as<ir::BoolAttr>();
  if (lower && lower->value)
    p << ", lower = true";
  printAttrDict(p, op, {"lower"});
  p << " : ";
  printSameOperandsAndResultType(p, op);
}

// `stablehlo.reduce_precision %x, format = e5m10 : type`.
bool parseReducePrecision(Parser& p, OperationState& s) {
  UnresolvedOperand operand;
  if (!p.parseOperand(operand) || !p.expect(TokenKind::Comma, ",") ||
      !p.parseKeywordEqual("format"))
    return false;
  std::string_view word = p.tok().spelling;
  size_t m = word.find('m');
  auto digits = [](std::string_view d) {
    return !d.empty() && std::all_of(d.begin(), d.end(), ::isdigit);
  };
  if (!p.tok().is(TokenKind::BareIdentifier) || !word.starts_with('e') ||
      m == std::string_view::npos || !digits(word.substr(1, m - 1)) || !digits(word.substr(m + 1)))
    return p.emitError("expected exponent mantissa in format e#m#, saw " + std::string(word));
  auto exponent = support::parseInteger<int32_t>(word.substr(1, m - 1));
  auto mantissa = support::parseInteger<int32_t>(word.substr(m + 1));
  if (!exponent || !mantissa)
    return p.emitError("exponent or mantissa bits out of range in " + std::string(word));
  s.addAttr("exponent_bits", i32Attr(*exponent));
  s.addAttr("mantissa_bits", i32Attr(*mantissa));
  p.consume();
  return parseAttrDict(p, s) && parseSameOperandsAndResultType(p, s, {operand}, 1);
}

void printReducePrecision(Printer& p, const Operation& op) {
  auto e = intValue(op.attr("exponent_bits"));
  auto m = intValue(op.attr("mantissa_bits"));
  if (!e || !m || op.numOperands() != 1)
    return printGenericBody(p, op);
  p << " ";
  p.printOperand(op.operand(0));
  p << ", format = e" << std::to_string(*e) << "m" << std::to_string(*m);
  printAttrDict(p, op, {"exponent_bits", "mantissa_bits"});
  p << " : ";
  printSameOperandsAndResultType(p, op);
}

// `stablehlo.composite "my.op" %a, %b {decomposition = @f} : (...) -> ...`.
bool parseComposite(Parser& p, OperationState& s) {
  std::string name;
  std::vector<UnresolvedOperand> operands;
  if (!p.parseString(name) || !p.parseOperandList(operands))
    return false;
  s.addAttr("name", Attribute::string(std::move(name)));
  return parseAttrDict(p, s) && parseFunctionalTypeFor(p, s, operands);
}

void printComposite(Printer& p, const Operation& op) {
  if (!op.attr("name").as<ir::StringAttr>())
    return printGenericBody(p, op);
  p << " " << op.attr("name").str() << " ";
  p.printOperands(op.operands());
  printAttrDict(p, op, {"name"});
  p << " : ";
  p.printFunctionalType(op);
}

// StableHLO names the results of rng_bit_generator after the op's result names.
void rngResultNames(const Operation&, std::vector<std::string>& names) {
  names = {"output_state", "output"};
}

} // namespace

void registerShapeFormats(const AddFormat& add) {
  for (const KeyedFormat& f : keyedFormats()) {
    std::vector<std::string_view> inherent;
    for (const KeyedParam& param : f.params)
      inherent.push_back(param.attr);
    bool rng = f.op == "stablehlo.rng_bit_generator";
    add({f.op, parseKeyed, printKeyed, inherent, rng ? rngResultNames : nullptr});
  }
  add({"stablehlo.compare", parseCompare, printCompare, {"comparison_direction", "compare_type"}});
  add({"stablehlo.slice", parseSlice, printSlice, {"start_indices", "limit_indices", "strides"}});
  add({"stablehlo.cholesky", parseCholesky, printCholesky, {"lower"}});
  add({"stablehlo.reduce_precision",
       parseReducePrecision,
       printReducePrecision,
       {"exponent_bits", "mantissa_bits"}});
  add({"stablehlo.composite",
       parseComposite,
       printComposite,
       {"name", "composite_attributes", "decomposition", "version"}});
}

} // namespace shardscope::io::mlir::detail::shlo
