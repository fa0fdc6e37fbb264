#include "core/io/mlir/detail/parser.h"

#include "core/io/mlir/detail/op_format.h"
#include "core/ir/quant_type.h"
#include "core/support/checked_math.h"
#include "core/support/parse_number.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace shardscope::io::mlir::detail {

using ir::Attribute;
using ir::NamedAttribute;
using ir::Type;
using support::SourceLocation;

void OperationState::addAttr(std::string attrName, Attribute value, bool isInherent) {
  if (isInherent)
    inherent.push_back(attrName);
  attrs.push_back({std::move(attrName), value.impl()});
}

Attribute OperationState::attr(std::string_view attrName) const {
  for (const NamedAttribute& a : attrs)
    if (a.name == attrName)
      return Attribute(a.value);
  return {};
}

Parser::Parser(std::string_view text, uint32_t fileId, support::DiagnosticSink& sink)
    : m_lexer(text, fileId), m_fileId(fileId), m_sink(sink) {
  consume();
}

SourceLocation Parser::locOf(const Token& t) const {
  return {m_fileId, t.line, t.column, static_cast<uint32_t>(t.spelling.size())};
}

void Parser::consume() { m_tok = m_lexer.next(); }

bool Parser::consumeIf(TokenKind kind) {
  if (!m_tok.is(kind))
    return false;
  consume();
  return true;
}

bool Parser::consumeKeywordIf(std::string_view word) {
  if (!m_tok.isKeyword(word))
    return false;
  consume();
  return true;
}

bool Parser::expect(TokenKind kind, std::string_view spelling) {
  if (consumeIf(kind))
    return true;
  return emitError("expected '" + std::string(spelling) + "'");
}

bool Parser::expectKeyword(std::string_view word) {
  if (consumeKeywordIf(word))
    return true;
  return emitError("expected '" + std::string(word) + "'");
}

bool Parser::emitError(const std::string& message) { return emitError(loc(), message); }

bool Parser::emitError(SourceLocation at, const std::string& message) {
  // Only the first error of a parse is real; the rest would be follow-on noise, except for the
  // "failed to parse ..." / "failed parsing ..." context lines that nested attribute parsers add
  // deliberately.
  if (m_hadError && message.rfind("failed to parse", 0) != 0 &&
      message.rfind("failed parsing", 0) != 0)
    return false;
  m_hadError = true;
  m_sink.report({support::Severity::Error, m_errorPrefix + message, at, {}});
  return false;
}

// ---------------------------------------------------------------------------------------------
// Scalars

bool Parser::parseOptionalInteger(int64_t& value, bool& present) {
  present = false;
  bool negative = false;
  if (m_tok.is(TokenKind::Minus)) {
    negative = true;
    consume();
    if (!m_tok.is(TokenKind::Integer))
      return emitError("expected integer value");
  }
  if (!m_tok.is(TokenKind::Integer))
    return true;
  present = true;
  std::string_view s = m_tok.spelling;
  uint64_t magnitude = 0;
  std::from_chars_result r;
  if (s.size() > 2 && s[1] == 'x')
    r = std::from_chars(s.data() + 2, s.data() + s.size(), magnitude, 16);
  else
    r = std::from_chars(s.data(), s.data() + s.size(), magnitude, 10);
  if (r.ec != std::errc())
    return emitError("integer value too large");
  value = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  consume();
  return true;
}

bool Parser::parseInteger(int64_t& value) {
  bool present = false;
  if (!parseOptionalInteger(value, present))
    return false;
  if (!present)
    return emitError("expected integer value");
  return true;
}

bool Parser::parseBool(bool& value) {
  if (consumeKeywordIf("true")) {
    value = true;
    return true;
  }
  if (consumeKeywordIf("false")) {
    value = false;
    return true;
  }
  return emitError("expected 'true' or 'false'");
}

namespace {
std::string unescape(std::string_view quoted) {
  std::string out;
  for (size_t i = 1; i + 1 < quoted.size(); ++i) {
    char c = quoted[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    char n = quoted[++i];
    if (n == 'n')
      out += '\n';
    else if (n == 't')
      out += '\t';
    else if (n == '"' || n == '\\')
      out += n;
    else if (std::isxdigit(static_cast<unsigned char>(n)) && i + 1 < quoted.size()) {
      out += static_cast<char>(support::parseInteger<int>(quoted.substr(i, 2), 16).value_or('?'));
      ++i;
    }
  }
  return out;
}
} // namespace

bool Parser::parseString(std::string& value) {
  if (!m_tok.is(TokenKind::String))
    return emitError("expected string");
  value = unescape(m_tok.spelling);
  consume();
  return true;
}

bool Parser::parseSymbolName(std::string& value) {
  if (!m_tok.is(TokenKind::AtIdentifier))
    return emitError("expected symbol name");
  std::string_view s = m_tok.spelling.substr(1);
  value = s.starts_with('"') ? unescape(s) : std::string(s);
  consume();
  return true;
}

bool Parser::parseIntegerList(std::vector<int64_t>& values) {
  if (!expect(TokenKind::LSquare, "["))
    return false;
  if (consumeIf(TokenKind::RSquare))
    return true;
  do {
    int64_t v;
    if (!parseInteger(v))
      return false;
    values.push_back(v);
  } while (consumeIf(TokenKind::Comma));
  return expect(TokenKind::RSquare, "]");
}

bool Parser::parseKeywordEqual(std::string_view key) {
  return expectKeyword(key) && expect(TokenKind::Equal, "=");
}

// ---------------------------------------------------------------------------------------------
// Values

bool Parser::parseOperand(UnresolvedOperand& operand) {
  if (!m_tok.is(TokenKind::PercentIdentifier))
    return emitError("expected SSA operand");
  operand.name = std::string(m_tok.spelling);
  operand.loc = loc();
  operand.number = 0;
  consume();
  if (m_tok.is(TokenKind::HashIdentifier)) {
    std::string_view digits = m_tok.spelling.substr(1);
    unsigned n = 0;
    auto r = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (r.ec != std::errc() || r.ptr != digits.data() + digits.size())
      return emitError("invalid SSA value result number");
    operand.number = n;
    consume();
  }
  return true;
}

bool Parser::parseOperandList(std::vector<UnresolvedOperand>& operands) {
  if (!m_tok.is(TokenKind::PercentIdentifier))
    return true;
  do {
    UnresolvedOperand o;
    if (!parseOperand(o))
      return false;
    operands.push_back(std::move(o));
  } while (consumeIf(TokenKind::Comma));
  return true;
}

bool Parser::defineValues(const UnresolvedOperand& name, std::vector<ir::Value*> values) {
  Scope& scope = m_scopes.back();
  if (lookupValues(name.name))
    return emitError(name.loc, "redefinition of SSA value '" + name.name + "'");
  // Keep the written name (`%x`, and `%7` too): views name values as the source does in every
  // stage, and MLIR's own numbering ignores it.
  std::string hint = name.name.substr(1);
  if (!hint.empty())
    for (ir::Value* v : values)
      v->setNameHint(hint);
  scope.values.emplace(name.name, std::move(values));
  return true;
}

const std::vector<ir::Value*>* Parser::lookupValues(const std::string& name) const {
  for (auto it = m_scopes.rbegin(); it != m_scopes.rend(); ++it) {
    auto found = it->values.find(name);
    if (found != it->values.end())
      return &found->second;
    if (it->isolated)
      break;
  }
  return nullptr;
}

bool Parser::resolveOperand(const UnresolvedOperand& operand, Type type, ir::Value*& out) {
  const std::vector<ir::Value*>* values = lookupValues(operand.name);
  if (!values)
    return emitError(operand.loc, "use of undeclared SSA value name");
  if (operand.number >= values->size())
    return emitError(operand.loc, "result number " + std::to_string(operand.number) +
                                      " is out of range for '" + operand.name + "'");
  out = (*values)[operand.number];
  if (type && out->type() != type)
    return emitError(operand.loc, "use of value '" + operand.name +
                                      "' expects different type than prior uses: '" + type.str() +
                                      "' vs '" + out->type().str() + "'");
  return true;
}

bool Parser::resolveOperands(const std::vector<UnresolvedOperand>& operands,
                             const std::vector<Type>& types, std::vector<ir::Value*>& out) {
  if (operands.size() != types.size())
    return emitError(operands.empty() ? loc() : operands.front().loc,
                     std::to_string(operands.size()) + " operands present, but expected " +
                         std::to_string(types.size()));
  for (size_t i = 0; i < operands.size(); ++i) {
    ir::Value* v = nullptr;
    if (!resolveOperand(operands[i], types[i], v))
      return false;
    out.push_back(v);
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Types

bool Parser::opaqueTensorType(const Token& start, std::string_view raw, Type& type) {
  std::string text = "tensor" + std::string(raw);
  if (std::optional<ir::QuantType> quant = ir::parseQuantTensorText(text)) {
    // One type however it is spelled (`i8<-128:127>` is `i8`), checked as MLIR's quant dialect
    // checks it when it builds the type.
    if (std::optional<std::string> problem = ir::quantInvariantError(*quant))
      return emitError(locOf(start), *problem);
    return type = quant->type(), true;
  }
  return type = Type::opaque(text), true;
}

bool Parser::parseTensorType(Type& type) {
  // `tensor<` was consumed as a keyword; the body `4x?x8xf32>` is scanned by hand because
  // `4x8xf32` is not a sequence of MLIR tokens.
  if (!m_tok.is(TokenKind::Less))
    return emitError("expected '<' in tensor type");
  Token start = m_tok;
  size_t offset = static_cast<size_t>(m_tok.spelling.data() - m_lexer.buffer().data());
  std::string_view raw = m_lexer.skipBalancedAngles(offset, m_tok.line, m_tok.column);
  if (raw.empty())
    return emitError("unbalanced '<' in tensor type");
  consume();
  std::string_view body = raw.substr(1, raw.size() - 2);
  std::string cleaned;
  for (char c : body)
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r')
      cleaned += c;
  if (cleaned.starts_with("*x"))
    return opaqueTensorType(start, raw, type);
  std::vector<int64_t> shape;
  size_t pos = 0;
  while (true) {
    size_t x = cleaned.find('x', pos);
    std::string_view part = std::string_view(cleaned).substr(pos, x == std::string::npos ? std::string::npos : x - pos);
    if (part == "?") {
      shape.push_back(ir::kDynamicSize);
    } else if (!part.empty() && std::all_of(part.begin(), part.end(), ::isdigit)) {
      int64_t d = 0;
      auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), d);
      if (ec != std::errc() || end != part.data() + part.size())
        return emitError(locOf(start), "dimension size " + std::string(part) +
                                           " in tensor type does not fit in 64 bits");
      shape.push_back(d);
    } else {
      break;
    }
    pos = x + 1;
    if (x == std::string::npos)
      return emitError(locOf(start), "expected element type in tensor type");
  }
  std::string_view elementText = std::string_view(cleaned).substr(pos);
  auto invalidElement = [](std::string_view text) {
    constexpr size_t kShown = 40; // the text may run over several lines of unrelated ops
    std::string shown(text.substr(0, kShown));
    if (text.size() > kShown)
      shown += "...";
    return "invalid element type '" + shown + "' in tensor type";
  };
  // A tensor encoding (`tensor<4xf32, #enc>`) or a dialect element type
  // (`tensor<4x!quant.uniform<i8:f32, 0.1>>`) is kept verbatim, but only after checking the
  // element type: otherwise any text up to a far-away balancing `>` (whole lines of ops) would
  // be swallowed as one opaque type.
  if (elementText.find(',') != std::string_view::npos) {
    size_t comma = elementText.size();
    int depth = 0;
    bool inString = false;
    for (size_t i = 0; i < elementText.size() && comma == elementText.size(); ++i) {
      char c = elementText[i];
      if (inString) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          inString = false;
      } else if (c == '"') {
        inString = true;
      } else if (c == '<' || c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == '>' || c == ')' || c == ']' || c == '}') {
        --depth;
      } else if (c == ',' && depth == 0) {
        comma = i;
      }
    }
    std::string_view elementName = elementText.substr(0, comma);
    if (!elementName.starts_with('!') && !ir::parseElementTypeName(elementName))
      return emitError(locOf(start), invalidElement(elementName));
    return opaqueTensorType(start, raw, type);
  }
  auto element = ir::parseElementTypeName(elementText);
  if (!element)
    return emitError(locOf(start), invalidElement(elementText));
  // Every consumer multiplies the dimensions: their product must be an element count.
  std::vector<int64_t> known;
  for (int64_t d : shape)
    if (d != ir::kDynamicSize)
      known.push_back(d);
  if (!support::checkedProduct(known))
    return emitError(locOf(start), "tensor type has more elements than fit in 64 bits");
  type = Type::tensor(shape, *element);
  return true;
}

bool Parser::parseType(Type& type) {
  NestingGuard nesting(m_typeDepth);
  if (nesting.tooDeep())
    return emitError("types nested more than " + std::to_string(NestingGuard::kMaxNesting) +
                     " levels deep");
  if (m_tok.is(TokenKind::LParen)) {
    std::vector<Type> inputs, results;
    if (!parseFunctionType(inputs, results))
      return false;
    type = Type::function(inputs, results);
    return true;
  }
  if (m_tok.is(TokenKind::BangIdentifier)) {
    std::string name(m_tok.spelling);
    consume();
    if (name == "!stablehlo.token") {
      type = Type::token();
      return true;
    }
    if (auto it = m_typeAliases.find(name); it != m_typeAliases.end()) {
      type = it->second;
      return true;
    }
    if (m_tok.is(TokenKind::Less)) {
      size_t offset = static_cast<size_t>(m_tok.spelling.data() - m_lexer.buffer().data());
      std::string_view raw = m_lexer.skipBalancedAngles(offset, m_tok.line, m_tok.column);
      if (raw.empty())
        return emitError("unbalanced '<' in dialect type");
      consume();
      name += opaqueText(raw);
    }
    type = Type::opaque(name);
    return true;
  }
  if (!m_tok.is(TokenKind::BareIdentifier))
    return emitError("expected non-function type");
  std::string_view word = m_tok.spelling;
  if (word == "tensor") {
    consume();
    return parseTensorType(type);
  }
  if (word == "none") {
    consume();
    type = Type::none();
    return true;
  }
  if (word == "tuple") {
    consume();
    if (!expect(TokenKind::Less, "<"))
      return false;
    std::vector<Type> elements;
    if (!m_tok.is(TokenKind::Greater) && !parseTypeList(elements))
      return false;
    if (!expect(TokenKind::Greater, ">"))
      return false;
    type = Type::tuple(elements);
    return true;
  }
  if (word == "complex") {
    consume();
    Type inner;
    if (!expect(TokenKind::Less, "<") || !parseType(inner) || !expect(TokenKind::Greater, ">"))
      return false;
    if (inner.kind() != Type::Kind::Scalar ||
        !(inner.elementType() == ir::ElementType::F32 || inner.elementType() == ir::ElementType::F64))
      return emitError("unsupported complex element type");
    type = Type::scalar(inner.elementType() == ir::ElementType::F32 ? ir::ElementType::Complex64
                                                                     : ir::ElementType::Complex128);
    return true;
  }
  if (auto element = ir::parseElementTypeName(word)) {
    consume();
    type = Type::scalar(*element);
    return true;
  }
  if (word == "memref" || word == "vector") {
    std::string name(word);
    consume();
    size_t offset = static_cast<size_t>(m_tok.spelling.data() - m_lexer.buffer().data());
    std::string_view raw = m_lexer.skipBalancedAngles(offset, m_tok.line, m_tok.column);
    if (raw.empty())
      return emitError("expected '<'");
    consume();
    type = Type::opaque(name + opaqueText(raw));
    return true;
  }
  return emitError("expected non-function type");
}

bool Parser::parseTypeList(std::vector<Type>& types) {
  do {
    Type t;
    if (!parseType(t))
      return false;
    types.push_back(t);
  } while (consumeIf(TokenKind::Comma));
  return true;
}

bool Parser::parseResultTypes(std::vector<Type>& types) {
  if (m_tok.is(TokenKind::LParen)) {
    consume();
    if (consumeIf(TokenKind::RParen))
      return true;
    return parseTypeList(types) && expect(TokenKind::RParen, ")");
  }
  Type t;
  if (!parseType(t))
    return false;
  types.push_back(t);
  return true;
}

bool Parser::parseFunctionType(std::vector<Type>& inputs, std::vector<Type>& results) {
  if (!expect(TokenKind::LParen, "("))
    return false;
  if (!m_tok.is(TokenKind::RParen) && !parseTypeList(inputs))
    return false;
  if (!expect(TokenKind::RParen, ")") || !expect(TokenKind::Arrow, "->"))
    return false;
  return parseResultTypes(results);
}

// ---------------------------------------------------------------------------------------------
// Regions

bool Parser::parseArgumentList(std::vector<BlockArgDef>& args, bool allowAttrs,
                               std::vector<std::vector<NamedAttribute>>* argAttrs) {
  if (!expect(TokenKind::LParen, "("))
    return false;
  if (consumeIf(TokenKind::RParen))
    return true;
  // A function signature (`allowAttrs`) may list types only, as declarations are printed:
  // `func.func private @f(tensor<4xf32>, i32 {attrs})`. As in MLIR, either every argument is
  // named or none is.
  bool named = !allowAttrs || m_tok.is(TokenKind::PercentIdentifier);
  do {
    BlockArgDef arg;
    if (!named) {
      if (m_tok.is(TokenKind::PercentIdentifier))
        return emitError("expected type instead of SSA identifier");
      arg.name.loc = loc();
      if (!parseType(arg.type))
        return false;
    } else if (allowAttrs && !m_tok.is(TokenKind::PercentIdentifier)) {
      return emitError("expected SSA identifier");
    } else if (!parseOperand(arg.name) || !expect(TokenKind::Colon, ":") || !parseType(arg.type)) {
      return false;
    }
    std::vector<NamedAttribute> attrs;
    if (allowAttrs && !parseOptionalAttrDict(attrs))
      return false;
    if (argAttrs)
      argAttrs->push_back(std::move(attrs));
    if (m_tok.isKeyword("loc") && !parseTrailingLocation(&arg.debugLoc))
      return false;
    args.push_back(std::move(arg));
  } while (consumeIf(TokenKind::Comma));
  return expect(TokenKind::RParen, ")");
}

bool Parser::parseRegion(ir::Region& region, const std::vector<BlockArgDef>& entryArgs,
                         bool isolated) {
  SourceLocation openLoc = loc();
  NestingGuard nesting(m_regionDepth);
  if (nesting.tooDeep())
    return emitError("regions nested more than " + std::to_string(NestingGuard::kMaxNesting) +
                     " levels deep");
  if (!expect(TokenKind::LBrace, "{"))
    return false;
  // Entry arguments without names come from a signature that lists types only, which is only
  // valid for a declaration (MLIR then builds an entry block without arguments, which the
  // function verifier rejects with this message).
  if (!entryArgs.empty() && entryArgs.front().name.name.empty())
    return emitError(openLoc, "entry block must have " + std::to_string(entryArgs.size()) +
                                  " arguments to match function signature");
  pushScope(isolated);
  ir::Block& block = region.addBlock();
  std::vector<BlockArgDef> args = entryArgs;
  if (m_tok.is(TokenKind::CaretIdentifier)) {
    consume();
    if (m_tok.is(TokenKind::LParen) && !parseArgumentList(args, false, nullptr))
      return popScope(), false;
    if (!expect(TokenKind::Colon, ":"))
      return popScope(), false;
  }
  for (const BlockArgDef& arg : args) {
    ir::Value* v = block.addArgument(arg.type);
    v->setDebugLoc(arg.debugLoc);
    if (!defineValues(arg.name, {v}))
      return popScope(), false;
  }
  while (!m_tok.is(TokenKind::RBrace)) {
    if (m_tok.is(TokenKind::Eof))
      return popScope(), emitError("unexpected end of input: expected '}' to close the region "
                                   "opened at line " + std::to_string(openLoc.line) + ":" +
                                   std::to_string(openLoc.column));
    if (m_tok.is(TokenKind::CaretIdentifier))
      return popScope(), emitError("regions with more than one block are not supported");
    if (!parseOperation(block))
      return popScope(), false;
  }
  consume();
  popScope();
  return true;
}

// ---------------------------------------------------------------------------------------------
// Operations

namespace {
// Describes a token the lexer could not classify: an unterminated string or a stray byte.
std::string describeBadToken(const Token& t) {
  if (t.spelling.starts_with('"') || t.spelling.starts_with("@\""))
    return "unterminated string literal";
  unsigned char c = t.spelling.empty() ? 0 : static_cast<unsigned char>(t.spelling[0]);
  char buf[64];
  if (c >= 0x20 && c < 0x7f)
    std::snprintf(buf, sizeof buf, "unexpected character '%c'", c);
  else
    std::snprintf(buf, sizeof buf, "unexpected byte 0x%02X (is this a text MLIR file?)", c);
  return buf;
}
} // namespace

ir::Operation* Parser::parseOperation(ir::Block& block) {
  SourceLocation opLoc = loc();
  struct ResultName {
    UnresolvedOperand name;
    unsigned count = 1;
  };
  std::vector<ResultName> resultNames;
  if (m_tok.is(TokenKind::PercentIdentifier)) {
    do {
      ResultName r;
      if (!m_tok.is(TokenKind::PercentIdentifier))
        return emitError("expected valid ssa identifier"), nullptr;
      r.name.name = std::string(m_tok.spelling);
      r.name.loc = loc();
      consume();
      if (consumeIf(TokenKind::Colon)) {
        int64_t n = 0;
        if (!parseInteger(n) || n < 1)
          return emitError("expected integer number of results"), nullptr;
        r.count = static_cast<unsigned>(n);
      }
      resultNames.push_back(std::move(r));
    } while (consumeIf(TokenKind::Comma));
    if (!expect(TokenKind::Equal, "="))
      return nullptr;
  }

  OperationState state;
  state.loc = opLoc;
  if (m_tok.is(TokenKind::String)) {
    state.name = unescape(m_tok.spelling);
    if (state.name.empty()) {
      emitError("empty operation name is invalid");
      return nullptr;
    }
    consume();
    if (!parseGenericOperation(state))
      return nullptr;
  } else if (m_tok.is(TokenKind::BareIdentifier)) {
    state.name = std::string(m_tok.spelling);
    // Ops without a dialect prefix use the default dialect of the enclosing op (func).
    if (state.name == "return")
      state.name = "func.return";
    else if (state.name == "call")
      state.name = "func.call";
    else if (state.name == "func")
      state.name = "func.func";
    consume();
    if (!parseCustomOperation(state))
      return nullptr;
  } else if (m_tok.is(TokenKind::Error)) {
    emitError(describeBadToken(m_tok));
    return nullptr;
  } else {
    emitError("expected operation name in quotes");
    return nullptr;
  }
  if (m_tok.isKeyword("loc") && !parseTrailingLocation(&state.debugLoc))
    return nullptr;

  auto op = ir::Operation::create(state.name, state.operands, state.resultTypes, state.loc);
  op->setDebugLoc(state.debugLoc);
  for (NamedAttribute& a : state.attrs)
    op->setAttr(a.name, Attribute(a.value));
  for (const std::string& name : state.inherent)
    op->setInherent(name, true);
  for (auto& region : state.regions)
    op->adoptRegion(std::move(region));

  unsigned named = 0;
  for (const ResultName& r : resultNames)
    named += r.count;
  if (!resultNames.empty() && named != op->numResults()) {
    emitError(opLoc, "operation defines " + std::to_string(op->numResults()) +
                         " results but was provided " + std::to_string(named) + " to bind");
    return nullptr;
  }
  if (resultNames.empty() && op->numResults() != 0 && !m_scopes.empty()) {
    // Unnamed results are legal; they simply cannot be used.
  }
  unsigned next = 0;
  for (const ResultName& r : resultNames) {
    std::vector<ir::Value*> values;
    for (unsigned i = 0; i < r.count; ++i)
      values.push_back(op->result(next++));
    if (!defineValues(r.name, std::move(values)))
      return nullptr;
  }
  return block.push_back(std::move(op));
}

bool Parser::parseGenericOperation(OperationState& state) {
  std::vector<UnresolvedOperand> operands;
  if (!expect(TokenKind::LParen, "(") || !parseOperandList(operands) ||
      !expect(TokenKind::RParen, ")"))
    return false;
  if (m_tok.is(TokenKind::LSquare))
    return emitError("successors are not supported");
  const OpFormat* format = lookupOpFormat(state.name);
  if (m_tok.is(TokenKind::Less)) {
    consume();
    std::vector<NamedAttribute> props;
    if (!expect(TokenKind::LBrace, "{") || !parseAttrDictEntries(props) ||
        !expect(TokenKind::Greater, ">"))
      return false;
    for (NamedAttribute& p : props)
      state.addAttr(std::move(p.name), Attribute(p.value), true);
  }
  if (consumeIf(TokenKind::LParen)) {
    do {
      auto region = std::make_unique<ir::Region>(nullptr);
      bool isolated = format && format->isolatedFromAbove;
      if (!parseRegion(*region, {}, isolated))
        return false;
      state.regions.push_back(std::move(region));
    } while (consumeIf(TokenKind::Comma));
    if (!expect(TokenKind::RParen, ")"))
      return false;
  }
  std::vector<NamedAttribute> attrs;
  if (!parseOptionalAttrDict(attrs))
    return false;
  for (NamedAttribute& a : attrs) {
    bool isInherent = format && std::find(format->inherentAttrs.begin(), format->inherentAttrs.end(),
                                          a.name) != format->inherentAttrs.end();
    state.addAttr(std::move(a.name), Attribute(a.value), isInherent);
  }
  std::vector<Type> inputs, results;
  if (!expect(TokenKind::Colon, ":") || !parseFunctionType(inputs, results))
    return false;
  state.resultTypes = results;
  return resolveOperands(operands, inputs, state.operands);
}

bool Parser::parseCustomOperation(OperationState& state) {
  const OpFormat* format = lookupOpFormat(state.name);
  if (!format || !format->parse)
    return emitError(state.loc, "custom op '" + state.name + "' is unknown");
  return format->parse(*this, state);
}

// ---------------------------------------------------------------------------------------------
// Module

bool Parser::parseAliasDefinition() {
  // `#alias = attribute`, `#loc3 = loc(...)` or `!alias = type`.
  Token name = m_tok;
  bool isAttr = m_tok.is(TokenKind::HashIdentifier);
  consume();
  if (!expect(TokenKind::Equal, "="))
    return false;
  if (!isAttr) {
    Type t;
    if (!parseType(t))
      return false;
    if (!m_typeAliases.emplace(std::string(name.spelling), t).second)
      return emitError(locOf(name), "redefinition of type alias id '" +
                                        std::string(name.spelling.substr(1)) + "'");
    return true;
  }
  if (m_tok.isKeyword("loc"))
    return parseLocationAliasDefinition(name);
  if (m_attrAliases.count(std::string(name.spelling)) || m_locAliases.count(name.spelling))
    return emitError(locOf(name), "redefinition of attribute alias id '" +
                                      std::string(name.spelling.substr(1)) + "'");
  Attribute a;
  if (!parseAttribute(a))
    return false;
  m_attrAliases[std::string(name.spelling)] = a;
  return true;
}

bool Parser::parseTopLevel(ir::Block& body) {
  while (!m_tok.is(TokenKind::Eof) && !m_tok.is(TokenKind::RBrace)) {
    bool ok;
    if (m_tok.is(TokenKind::HashIdentifier) || m_tok.is(TokenKind::BangIdentifier))
      ok = parseAliasDefinition();
    else if (m_tok.is(TokenKind::FileMetadataBegin))
      ok = parseFileMetadata();
    else
      ok = parseOperation(body) != nullptr;
    if (!ok)
      return false;
  }
  return true;
}

std::unique_ptr<ir::Module> Parser::parseModule() {
  m_module = std::make_unique<ir::Module>();
  pushScope(true);
  ir::Operation& moduleOp = m_module->op();
  bool ok = true;
  // JAX starts with `#loc = loc(unknown)`; aliases may come before an explicit module.
  while (ok && (m_tok.is(TokenKind::HashIdentifier) || m_tok.is(TokenKind::BangIdentifier)))
    ok = parseAliasDefinition();
  if (!ok) {
    popScope();
    return nullptr;
  }
  moduleOp.setLoc(loc());
  if (m_tok.isKeyword("module")) {
    consume();
    if (m_tok.is(TokenKind::AtIdentifier)) {
      std::string name;
      if (!parseSymbolName(name))
        return popScope(), nullptr;
      moduleOp.setAttr("sym_name", Attribute::string(name));
    }
    if (consumeKeywordIf("attributes")) {
      std::vector<NamedAttribute> attrs;
      if (!m_tok.is(TokenKind::LBrace))
        return emitError("expected '{'"), nullptr;
      if (!parseOptionalAttrDict(attrs))
        return nullptr;
      for (auto& a : attrs)
        moduleOp.setAttr(a.name, Attribute(a.value));
    }
    ok = expect(TokenKind::LBrace, "{") && parseTopLevel(m_module->body()) &&
         expect(TokenKind::RBrace, "}");
    if (ok && m_tok.isKeyword("loc")) {
      ir::DebugLoc moduleLoc = ir::kUnknownLoc;
      ok = parseTrailingLocation(&moduleLoc);
      moduleOp.setDebugLoc(moduleLoc);
    }
    // Alias definitions (MLIR prints location aliases last) and the file metadata section may
    // follow the module; ops may not.
    while (ok && (m_tok.is(TokenKind::HashIdentifier) || m_tok.is(TokenKind::BangIdentifier) ||
                  m_tok.is(TokenKind::FileMetadataBegin))) {
      if (m_tok.is(TokenKind::FileMetadataBegin)) {
        ok = parseFileMetadata();
        continue;
      }
      ok = parseAliasDefinition();
    }
    if (ok && !m_tok.is(TokenKind::Eof))
      ok = emitError("expected end of input after module");
  } else {
    ok = parseTopLevel(m_module->body());
    if (ok && !m_tok.is(TokenKind::Eof))
      ok = emitError("unexpected '}' at top level");
  }
  popScope();
  ok = ok && checkLocationAliasesDefined() && checkResourcesDefined();
  if (!ok || m_hadError || m_deferredError)
    return nullptr;
  return std::move(m_module);
}

} // namespace shardscope::io::mlir::detail
