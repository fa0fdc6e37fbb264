// StableHLO ops with structured attributes: dot, dot_general, convolution and custom_call.
#include "core/io/mlir/op_formats_stablehlo.h"

#include <algorithm>
#include <charconv>

namespace shardscope::io::mlir::detail::shlo {

using ir::Attribute;
using ir::Operation;
using ir::Type;

namespace {

// --- Precision config and dot algorithm -----------------------------------------------------

// `, precision = [DEFAULT, HIGH]`, stored as `[#stablehlo<precision DEFAULT>, ...]`.
bool parsePrecisionList(Parser& p, OperationState& s) {
  std::vector<Attribute> cases;
  if (!p.parseKeywordEqual("precision") || !p.expect(TokenKind::LSquare, "["))
    return false;
  if (!p.tok().is(TokenKind::RSquare)) {
    do {
      std::string value;
      if (!parseEnumCase(p, "precision", {"DEFAULT", "HIGH", "HIGHEST"}, value))
        return false;
      cases.push_back(enumAttr("precision", value));
    } while (p.consumeIf(TokenKind::Comma));
  }
  if (!p.expect(TokenKind::RSquare, "]"))
    return false;
  s.addAttr("precision_config", Attribute::array(std::move(cases)));
  return true;
}

// The parameters of `#stablehlo.dot_algorithm`, in the order the attribute prints them.
constexpr std::string_view kAlgorithmFields[] = {
    "lhs_precision_type",          "rhs_precision_type",  "accumulation_type",
    "lhs_component_count",         "rhs_component_count", "num_primitive_operations",
    "allow_imprecise_accumulation"};

// One `key = value` of the algorithm; values are types, integers or booleans, kept as written.
bool parseAlgorithmField(Parser& p, std::string (&values)[7]) {
  const Token& key = p.tok();
  auto field = std::find(std::begin(kAlgorithmFields), std::end(kAlgorithmFields), key.spelling);
  if (!key.is(TokenKind::BareIdentifier) || field == std::end(kAlgorithmFields))
    return p.emitError("unexpected dot algorithm parameter '" + std::string(key.spelling) + "'");
  std::string& value = values[field - std::begin(kAlgorithmFields)];
  value.clear();
  p.consume();
  if (!p.expect(TokenKind::Equal, "="))
    return false;
  if (p.consumeIf(TokenKind::Minus))
    value = "-";
  if (!p.tok().is(TokenKind::BareIdentifier) && !p.tok().is(TokenKind::Integer))
    return p.emitError("expected dot algorithm parameter value");
  value += std::string(p.tok().spelling);
  p.consume();
  return true;
}

// `algorithm = <lhs_precision_type = tf32, ...>`, kept as the opaque
// `#stablehlo.dot_algorithm<...>` the generic form prints, with the parameters in the attribute's
// order.
bool parseAlgorithm(Parser& p, OperationState& s) {
  std::string values[7];
  if (!p.parseKeywordEqual("algorithm") || !p.expect(TokenKind::Less, "<"))
    return false;
  do {
    if (!parseAlgorithmField(p, values))
      return false;
  } while (p.consumeIf(TokenKind::Comma));
  if (!p.expect(TokenKind::Greater, ">"))
    return false;
  std::string text;
  for (size_t i = 0; i < 7; ++i)
    if (!values[i].empty())
      text += (text.empty() ? "" : ", ") + std::string(kAlgorithmFields[i]) + " = " + values[i];
  s.addAttr("algorithm", Attribute::opaque("#stablehlo.dot_algorithm<" + text + ">"));
  return true;
}

// StableHLO's PrecisionConfig(AndAlgorithm) directive: everything starts with a comma.
bool parsePrecisionAndAlgorithm(Parser& p, OperationState& s, bool allowAlgorithm) {
  if (!p.consumeIf(TokenKind::Comma))
    return true;
  if (p.tok().isKeyword("precision") || !allowAlgorithm) {
    if (!parsePrecisionList(p, s))
      return false;
    if (!allowAlgorithm || !p.consumeIf(TokenKind::Comma))
      return true;
  }
  return parseAlgorithm(p, s);
}

// Prints `, precision = [...]` and (dot_general) `, algorithm = <...>`; false when they are
// malformed.
bool printPrecisionAndAlgorithm(Printer& p, const Operation& op, bool withAlgorithm) {
  if (Attribute config = op.attr("precision_config")) {
    const auto* list = config.as<ir::ArrayAttr>();
    if (!list)
      return false;
    p << ", precision = [";
    for (size_t i = 0; i < list->elements.size(); ++i) {
      std::string value = enumValue(list->elements[i]);
      if (value.empty())
        return false;
      p << (i ? ", " : "") << value;
    }
    p << "]";
  }
  if (Attribute algorithm = op.attr("algorithm"); algorithm && withAlgorithm) {
    const auto* opaque = algorithm.as<ir::OpaqueAttr>();
    constexpr std::string_view prefix = "#stablehlo.dot_algorithm";
    if (!opaque || !opaque->text.starts_with(prefix))
      return false;
    p << ", algorithm = " << std::string_view(opaque->text).substr(prefix.size());
  }
  return true;
}

// --- dot, dot_general -----------------------------------------------------------------------

bool parseTwoOperands(Parser& p, std::vector<UnresolvedOperand>& operands) {
  operands.resize(2);
  return p.parseOperand(operands[0]) && p.expect(TokenKind::Comma, ",") &&
         p.parseOperand(operands[1]);
}

bool parseDot(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> operands;
  return parseTwoOperands(p, operands) && parsePrecisionAndAlgorithm(p, s, false) &&
         parseAttrDict(p, s) && parseFunctionalTypeFor(p, s, operands);
}

// Prints `%a, %b<suffix>attr-dict : type` where `suffix` prints the op's own parameters.
template <typename Suffix>
void printBinaryWith(Printer& p, const Operation& op, std::vector<std::string_view> elided,
                     Suffix suffix) {
  size_t start = p.out().size();
  p << " ";
  p.printOperands(op.operands());
  if (op.numOperands() != 2 || !suffix()) {
    p.out().resize(start);
    return printGenericBody(p, op);
  }
  printAttrDict(p, op, elided);
  p << " : ";
  p.printFunctionalType(op);
}

void printDot(Printer& p, const Operation& op) {
  printBinaryWith(p, op, {"precision_config"},
                  [&] { return printPrecisionAndAlgorithm(p, op, false); });
}

// The four dimension lists of `#stablehlo.dot<...>`, in the order the attribute prints them.
constexpr std::string_view kDotFields[4] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                                            "lhs_contracting_dimensions",
                                            "rhs_contracting_dimensions"};

Attribute encodeDotDims(const std::vector<int64_t> (&dims)[4]) {
  std::string text = "#stablehlo.dot<";
  bool first = true;
  for (int i = 0; i < 4; ++i) {
    if (dims[i].empty())
      continue; // empty lists are left out of the attribute's text
    text += (first ? "" : ", ") + std::string(kDotFields[i]) + " = [";
    for (size_t j = 0; j < dims[i].size(); ++j)
      text += (j ? ", " : "") + std::to_string(dims[i][j]);
    text += "]";
    first = false;
  }
  return Attribute::opaque(text + ">");
}

// Reads `key = [1, 2]` entries back from the opaque text (also as written in generic input).
bool decodeDotDims(const Attribute& attr, std::vector<int64_t> (&dims)[4]) {
  const auto* opaque = attr.as<ir::OpaqueAttr>();
  constexpr std::string_view prefix = "#stablehlo.dot<";
  if (!opaque || !opaque->text.starts_with(prefix) || !opaque->text.ends_with(">"))
    return false;
  std::string_view body = std::string_view(opaque->text).substr(prefix.size());
  body.remove_suffix(1);
  while (!body.empty()) {
    size_t eq = body.find(" = ["), close = body.find(']');
    if (eq == std::string_view::npos || close == std::string_view::npos || close < eq)
      return false;
    std::string_view key = body.substr(0, eq);
    int field = -1;
    for (int i = 0; i < 4; ++i)
      if (key == kDotFields[i])
        field = i;
    if (field < 0)
      return false;
    for (std::string_view list = body.substr(eq + 4, close - eq - 4); !list.empty();) {
      int64_t v = 0;
      auto r = std::from_chars(list.data(), list.data() + list.size(), v);
      if (r.ec != std::errc())
        return false;
      dims[field].push_back(v);
      list.remove_prefix(static_cast<size_t>(r.ptr - list.data()));
      if (list.starts_with(", "))
        list.remove_prefix(2);
    }
    body.remove_prefix(close + 1);
    if (body.starts_with(", "))
      body.remove_prefix(2);
  }
  return true;
}

// `[0, 1] x [2, 3]`.
bool parseDimPair(Parser& p, std::vector<int64_t>& lhs, std::vector<int64_t>& rhs) {
  return p.parseIntegerList(lhs) && p.expectKeyword("x") && p.parseIntegerList(rhs);
}

bool parseDotGeneral(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> operands;
  std::vector<int64_t> dims[4];
  if (!parseTwoOperands(p, operands) || !p.expect(TokenKind::Comma, ","))
    return false;
  if (p.consumeKeywordIf("batching_dims") &&
      (!p.expect(TokenKind::Equal, "=") || !parseDimPair(p, dims[0], dims[1]) ||
       !p.expect(TokenKind::Comma, ",")))
    return false;
  if (!p.parseKeywordEqual("contracting_dims") || !parseDimPair(p, dims[2], dims[3]))
    return false;
  s.addAttr("dot_dimension_numbers", encodeDotDims(dims));
  return parsePrecisionAndAlgorithm(p, s, true) && parseAttrDict(p, s) &&
         parseFunctionalTypeFor(p, s, operands);
}

bool printDotDims(Printer& p, const Operation& op) {
  std::vector<int64_t> dims[4];
  if (!decodeDotDims(op.attr("dot_dimension_numbers"), dims))
    return false;
  p << ", ";
  if (!dims[0].empty() || !dims[1].empty()) {
    p << "batching_dims = ";
    printIntList(p, dims[0]);
    p << " x ";
    printIntList(p, dims[1]);
    p << ", ";
  }
  p << "contracting_dims = ";
  printIntList(p, dims[2]);
  p << " x ";
  printIntList(p, dims[3]);
  return printPrecisionAndAlgorithm(p, op, true);
}

void printDotGeneral(Printer& p, const Operation& op) {
  printBinaryWith(p, op, {"dot_dimension_numbers", "precision_config", "algorithm"},
                  [&] { return printDotDims(p, op); });
}

// --- convolution ----------------------------------------------------------------------------

// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`, kept as the opaque `#stablehlo.conv<...>`.
bool parseConvDims(Parser& p, OperationState& s) {
  std::string text;
  if (!p.parseKeywordEqual("dim_numbers") || !p.parseConvDimensionNumbers(text))
    return false;
  s.addAttr("dimension_numbers", Attribute::opaque("#stablehlo.conv<" + text + ">"));
  return true;
}

Attribute paddingAttr(const std::vector<int64_t>& flat) {
  auto d = std::make_shared<ir::DenseElementsAttr>();
  int64_t shape[2] = {static_cast<int64_t>(flat.size() / 2), 2};
  d->type = Type::tensor(shape, ir::ElementType::I64);
  for (int64_t v : flat)
    for (int byte = 0; byte < 8; ++byte)
      d->raw.push_back(static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * byte)));
  return Attribute(std::move(d));
}

// `[[0, 1], [2, 3]]`.
bool parsePadding(Parser& p, std::vector<int64_t>& flat) {
  if (!p.expect(TokenKind::LSquare, "["))
    return false;
  if (p.consumeIf(TokenKind::RSquare))
    return true;
  do {
    int64_t lo = 0, hi = 0;
    if (!p.expect(TokenKind::LSquare, "[") || !p.parseInteger(lo) ||
        !p.expect(TokenKind::Comma, ",") || !p.parseInteger(hi) ||
        !p.expect(TokenKind::RSquare, "]"))
      return false;
    flat.push_back(lo);
    flat.push_back(hi);
  } while (p.consumeIf(TokenKind::Comma));
  return p.expect(TokenKind::RSquare, "]");
}

// `[true, false]` (also `[1, 0]`) as `array<i1: ...>`.
bool parseReversal(Parser& p, Attribute& attr) {
  auto a = std::make_shared<ir::DenseArrayAttr>();
  a->element = ir::ElementType::I1;
  if (!p.expect(TokenKind::LSquare, "["))
    return false;
  if (!p.tok().is(TokenKind::RSquare)) {
    do {
      bool b = false;
      int64_t i = 0;
      if (p.tok().is(TokenKind::Integer) ? !p.parseInteger(i) : !p.parseBool(b))
        return false;
      a->ints.push_back(b || i != 0);
    } while (p.consumeIf(TokenKind::Comma));
  }
  if (!p.expect(TokenKind::RSquare, "]"))
    return false;
  attr = Attribute(std::move(a));
  return true;
}

bool parseWindowEntry(Parser& p, OperationState& s, std::vector<std::string>& seen) {
  static const std::pair<std::string_view, const char*> names[] = {{"stride", "window_strides"},
                                                                   {"pad", "padding"},
                                                                   {"lhs_dilate", "lhs_dilation"},
                                                                   {"rhs_dilate", "rhs_dilation"},
                                                                   {"reverse", "window_reversal"}};
  std::string key(p.tok().spelling);
  const char* attr = nullptr;
  for (const auto& [written, stored] : names)
    if (p.tok().is(TokenKind::BareIdentifier) && key == written)
      attr = stored;
  if (!attr)
    return p.emitError("Unexpected keyword " + key);
  if (std::find(seen.begin(), seen.end(), key) != seen.end())
    return p.emitError("Duplicated attribute '" + key + "'");
  seen.push_back(key);
  p.consume();
  if (!p.expect(TokenKind::Equal, "="))
    return false;
  std::vector<int64_t> values;
  Attribute value;
  if (key == "reverse") {
    if (!parseReversal(p, value))
      return false;
  } else if (key == "pad") {
    if (!parsePadding(p, values))
      return false;
    value = paddingAttr(values);
  } else {
    if (!p.parseIntegerList(values))
      return false;
    value = Attribute::denseI64Array(values);
  }
  s.addAttr(attr, value);
  return true;
}

// `window = {stride = [2, 2], pad = [[0, 1], [0, 1]], ...}`.
bool parseWindow(Parser& p, OperationState& s) {
  std::vector<std::string> seen;
  if (!p.parseKeywordEqual("window") || !p.expect(TokenKind::LBrace, "{"))
    return false;
  if (p.consumeIf(TokenKind::RBrace))
    return true;
  do {
    if (!parseWindowEntry(p, s, seen))
      return false;
  } while (p.consumeIf(TokenKind::Comma));
  return p.expect(TokenKind::RBrace, "}");
}

bool parseConvolution(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> operands;
  if (!p.expect(TokenKind::LParen, "(") || !p.parseOperandList(operands) ||
      !p.expect(TokenKind::RParen, ")") || !parseConvDims(p, s) ||
      !p.expect(TokenKind::Comma, ",") || !parseWindow(p, s))
    return false;
  return parseAttrDict(p, s) && parseFunctionalTypeFor(p, s, operands);
}

// The value of one window entry: `[1, 2]`, `[[0, 1], [1, 0]]` or `[false, true]`.
bool printWindowValue(Printer& p, std::string_view key, const Attribute& attr) {
  std::optional<std::vector<int64_t>> values = intList(attr);
  if (!values || (key == "pad" && values->size() % 2 != 0))
    return false;
  p << key << " = [";
  size_t step = key == "pad" ? 2 : 1;
  for (size_t i = 0; i < values->size(); i += step) {
    p << (i ? ", " : "");
    if (key == "pad")
      p << "[" << std::to_string((*values)[i]) << ", " << std::to_string((*values)[i + 1]) << "]";
    else if (key == "reverse")
      p << ((*values)[i] ? "true" : "false");
    else
      p << std::to_string((*values)[i]);
  }
  p << "]";
  return true;
}

bool printConvBody(Printer& p, const Operation& op) {
  const auto* dims = op.attr("dimension_numbers").as<ir::OpaqueAttr>();
  constexpr std::string_view prefix = "#stablehlo.conv<";
  if (!dims || !dims->text.starts_with(std::string(prefix) + "["))
    return false;
  std::string_view text = std::string_view(dims->text).substr(prefix.size());
  text.remove_suffix(1);
  p << "(";
  p.printOperands(op.operands());
  p << ") dim_numbers = " << text << ", window = {";
  static const std::pair<std::string_view, const char*> entries[] = {
      {"stride", "window_strides"},
      {"pad", "padding"},
      {"lhs_dilate", "lhs_dilation"},
      {"rhs_dilate", "rhs_dilation"},
      {"reverse", "window_reversal"}};
  bool first = true;
  for (const auto& [key, attr] : entries) {
    if (!op.attr(attr))
      continue;
    p << (first ? "" : ", ");
    first = false;
    if (!printWindowValue(p, key, op.attr(attr)))
      return false;
  }
  p << "}";
  return true;
}

void printConvolution(Printer& p, const Operation& op) {
  size_t start = p.out().size();
  if (!printConvBody(p, op)) {
    p.out().resize(start);
    return printGenericBody(p, op);
  }
  printAttrDict(p, op,
                {"dimension_numbers", "window_strides", "padding", "lhs_dilation", "rhs_dilation",
                 "window_reversal"});
  p << " : ";
  p.printFunctionalType(op);
}

// --- custom_call ----------------------------------------------------------------------------

// `stablehlo.custom_call @target(%a, %b) {backend_config = ""} : (...) -> ...`.
bool parseCustomCall(Parser& p, OperationState& s) {
  std::string target;
  std::vector<UnresolvedOperand> operands;
  if (!p.parseSymbolName(target) || !p.expect(TokenKind::LParen, "(") ||
      !p.parseOperandList(operands) || !p.expect(TokenKind::RParen, ")"))
    return false;
  s.addAttr("call_target_name", Attribute::string(std::move(target)));
  return parseAttrDict(p, s) && parseFunctionalTypeFor(p, s, operands);
}

void printCustomCall(Printer& p, const Operation& op) {
  const auto* target = op.attr("call_target_name").as<ir::StringAttr>();
  if (!target)
    return printGenericBody(p, op);
  p << " ";
  Attribute::symbolRef({target->value}).print(p.out());
  p << "(";
  p.printOperands(op.operands());
  p << ")";
  printAttrDict(p, op, {"call_target_name"});
  p << " : ";
  p.printFunctionalType(op);
}

} // namespace

void registerDotConvFormats(const AddFormat& add) {
  add({"stablehlo.dot", parseDot, printDot, {"precision_config"}});
  add({"stablehlo.dot_general",
       parseDotGeneral,
       printDotGeneral,
       {"dot_dimension_numbers", "precision_config", "algorithm"}});
  add({"stablehlo.convolution",
       parseConvolution,
       printConvolution,
       {"window_strides", "padding", "lhs_dilation", "rhs_dilation", "window_reversal",
        "dimension_numbers", "feature_group_count", "batch_group_count", "precision_config"}});
  add({"stablehlo.custom_call",
       parseCustomCall,
       printCustomCall,
       {"call_target_name", "has_side_effect", "backend_config", "api_version",
        "called_computations", "operand_layouts", "result_layouts", "output_operand_aliases"}});
}

} // namespace shardscope::io::mlir::detail::shlo
