// Attribute parsing: builtin attributes, dense elements, and Shardy's structured attributes.
#include "core/support/parse_number.h"
#include "core/io/mlir/detail/parser.h"

#include "core/ir/minifloat.h"
#include "core/support/float16.h"

#include <bit>
#include <charconv>
#include <optional>
#include <cmath>
#include <cstring>

namespace shardscope::io::mlir::detail {

using ir::Attribute;
using ir::ElementType;
using ir::NamedAttribute;
using ir::Type;

std::string Parser::opaqueText(std::string_view raw) const {
  // Normalise the whitespace of a verbatim attribute the way MLIR would print it: runs of
  // whitespace become one space, none right inside `<`/`[`/`(` or before `>`/`]`/`)`/`,`.
  std::string out;
  bool pendingSpace = false;
  bool inString = false;
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (inString) {
      out += c;
      if (c == '\\' && i + 1 < raw.size())
        out += raw[++i];
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      pendingSpace = true;
      continue;
    }
    if (c == '/' && i + 1 < raw.size() && raw[i + 1] == '/') {
      // A comment inside a multi-line attribute (`inserted_window_dims = [0], // rows`) is
      // whitespace to MLIR, not part of the attribute.
      while (i + 1 < raw.size() && raw[i + 1] != '\n')
        ++i;
      pendingSpace = true;
      continue;
    }
    if (pendingSpace && !out.empty() && !std::strchr("<[(", out.back()) &&
        !std::strchr(">]),", c))
      out += ' ';
    pendingSpace = false;
    out += c;
    if (c == '"')
      inString = true;
  }
  return out;
}

bool Parser::parseOptionalAttrDict(std::vector<NamedAttribute>& attrs) {
  if (!m_tok.is(TokenKind::LBrace))
    return true;
  consume();
  return parseAttrDictEntries(attrs);
}

bool Parser::parseAttrDictEntries(std::vector<NamedAttribute>& attrs) {
  // The opening `{` has been consumed.
  if (consumeIf(TokenKind::RBrace))
    return true;
  do {
    std::string name;
    if (m_tok.is(TokenKind::BareIdentifier)) {
      name = std::string(m_tok.spelling);
    } else if (m_tok.is(TokenKind::String)) {
      name = std::string(m_tok.spelling.substr(1, m_tok.spelling.size() - 2));
    } else {
      return emitError("expected attribute name");
    }
    for (const NamedAttribute& a : attrs)
      if (a.name == name)
        return emitError("duplicate key '" + name + "' in dictionary attribute");
    consume();
    Attribute value = Attribute::unit();
    if (consumeIf(TokenKind::Equal) && !parseAttribute(value))
      return false;
    attrs.push_back({std::move(name), value.impl()});
  } while (consumeIf(TokenKind::Comma));
  return expect(TokenKind::RBrace, "}");
}

bool Parser::parseAttribute(Attribute& attr, Type expected) {
  NestingGuard nesting(m_attributeDepth);
  if (nesting.tooDeep())
    return emitError("attributes nested more than " + std::to_string(NestingGuard::kMaxNesting) +
                     " levels deep");
  const Token t = m_tok;
  switch (t.kind) {
  case TokenKind::BareIdentifier:
    if (t.spelling == "true" || t.spelling == "false") {
      consume();
      attr = Attribute::boolean(t.spelling == "true");
      return true;
    }
    if (t.spelling == "unit") {
      consume();
      attr = Attribute::unit();
      return true;
    }
    if (t.spelling == "dense") {
      consume();
      return parseDenseElements(attr);
    }
    if (t.spelling == "array") {
      consume();
      return parseDenseArray(attr);
    }
    if (t.spelling == "dense_resource") {
      consume();
      return parseDenseResource(attr);
    }
    if (t.spelling == "affine_map" || t.spelling == "affine_set" || t.spelling == "sparse" ||
        t.spelling == "strided") {
      consume();
      size_t offset = static_cast<size_t>(m_tok.spelling.data() - m_lexer.buffer().data());
      std::string_view raw = m_lexer.skipBalancedAngles(offset, m_tok.line, m_tok.column);
      if (raw.empty())
        return emitError("expected '<'");
      consume();
      std::string text = std::string(t.spelling) + opaqueText(raw);
      if (consumeIf(TokenKind::Colon)) {
        Type ty;
        if (!parseType(ty))
          return false;
        text += " : " + ty.str();
      }
      attr = Attribute::opaque(std::move(text));
      return true;
    }
    {
      Type ty;
      if (!parseType(ty))
        return false;
      attr = Attribute::type(ty);
      return true;
    }
  case TokenKind::Minus:
  case TokenKind::Integer:
  case TokenKind::Float: {
    bool negative = consumeIf(TokenKind::Minus);
    const Token num = m_tok;
    if (!num.is(TokenKind::Integer) && !num.is(TokenKind::Float))
      return emitError("expected constant integer or floating point value");
    consume();
    Type type = expected;
    if (consumeIf(TokenKind::Colon) && !parseType(type))
      return false;
    bool isFloatType = type && type.kind() == Type::Kind::Scalar &&
                       (ir::isFloatElement(type.elementType()));
    if (num.is(TokenKind::Float) || isFloatType) {
      if (!type)
        type = Type::scalar(ElementType::F64);
      if (!isFloatType)
        return emitError(locOf(num), "floating point value not valid for specified type");
      double v = std::strtod(std::string(num.spelling).c_str(), nullptr);
      attr = Attribute::floating(negative ? -v : v, type);
      return true;
    }
    if (!type)
      type = Type::scalar(ElementType::I64);
    std::string_view s = num.spelling;
    uint64_t magnitude = 0;
    auto r = s.size() > 2 && s[1] == 'x'
                 ? std::from_chars(s.data() + 2, s.data() + s.size(), magnitude, 16)
                 : std::from_chars(s.data(), s.data() + s.size(), magnitude, 10);
    if (r.ec != std::errc())
      return emitError(locOf(num), "integer constant out of range for attribute");
    attr = Attribute::integer(negative ? static_cast<int64_t>(0 - magnitude)
                                       : static_cast<int64_t>(magnitude),
                              type);
    return true;
  }
  case TokenKind::String: {
    std::string s;
    parseString(s);
    if (consumeIf(TokenKind::Colon)) {
      Type ignored;
      if (!parseType(ignored))
        return false;
    }
    attr = Attribute::string(std::move(s));
    return true;
  }
  case TokenKind::LSquare: {
    consume();
    std::vector<Attribute> elements;
    if (!consumeIf(TokenKind::RSquare)) {
      do {
        Attribute e;
        if (!parseAttribute(e))
          return false;
        elements.push_back(std::move(e));
      } while (consumeIf(TokenKind::Comma));
      if (!expect(TokenKind::RSquare, "]"))
        return false;
    }
    attr = Attribute::array(std::move(elements));
    return true;
  }
  case TokenKind::LBrace: {
    consume();
    std::vector<NamedAttribute> entries;
    if (!parseAttrDictEntries(entries))
      return false;
    attr = Attribute::dictionary(std::move(entries));
    return true;
  }
  case TokenKind::AtIdentifier: {
    std::vector<std::string> path(1);
    parseSymbolName(path[0]);
    while (consumeIf(TokenKind::ColonColon)) {
      path.emplace_back();
      if (!parseSymbolName(path.back()))
        return false;
    }
    attr = Attribute::symbolRef(std::move(path));
    return true;
  }
  case TokenKind::HashIdentifier:
    return parseDialectAttribute(attr);
  case TokenKind::LParen:
  case TokenKind::BangIdentifier: {
    Type ty;
    if (!parseType(ty))
      return false;
    attr = Attribute::type(ty);
    return true;
  }
  default:
    return emitError("expected attribute value");
  }
}

bool Parser::parseDenseArray(Attribute& attr) {
  if (!expect(TokenKind::Less, "<"))
    return false;
  Type elementType;
  if (!parseType(elementType))
    return false;
  if (elementType.kind() != Type::Kind::Scalar)
    return emitError("expected integer or float type");
  auto storage = std::make_shared<ir::DenseArrayAttr>();
  storage->element = elementType.elementType();
  if (consumeIf(TokenKind::Colon)) {
    do {
      if (storage->element == ElementType::I1) {
        bool b;
        if (!parseBool(b))
          return false;
        storage->ints.push_back(b);
        continue;
      }
      bool negative = consumeIf(TokenKind::Minus);
      if (!m_tok.is(TokenKind::Integer) && !m_tok.is(TokenKind::Float))
        return emitError("expected integer or float literal");
      std::string text(m_tok.spelling);
      consume();
      if (ir::isFloatElement(storage->element)) {
        double v = std::strtod(text.c_str(), nullptr);
        storage->floats.push_back(negative ? -v : v);
      } else {
        int64_t v = std::strtoll(text.c_str(), nullptr, 0);
        storage->ints.push_back(negative ? -v : v);
      }
    } while (consumeIf(TokenKind::Comma));
  }
  if (!expect(TokenKind::Greater, ">"))
    return false;
  attr = Attribute(std::move(storage));
  return true;
}

namespace {

// One scalar of a dense literal before its element type is known.
struct DenseScalar {
  bool isBool = false;
  bool isFloat = false;
  bool negative = false;
  std::string text;
  // Complex literals `(re, im)`: the imaginary part's spelling and sign, parsed once the element
  // type is known (hex spellings are bit patterns of the part type).
  std::string imagText;
  bool imagNegative = false;
  bool isComplex = false;
};

// The value of float literal `text` for element type `e`: a decimal number, or a hex bit pattern
// of `e`'s format (of the part type for complex types, `0x7FC00000` being an f32 NaN).
double floatLiteral(const std::string& text, ElementType e) {
  if (text.size() <= 2 || text[1] != 'x')
    return std::strtod(text.c_str(), nullptr);
  uint64_t bits = std::strtoull(text.c_str(), nullptr, 16);
  switch (e) {
  case ElementType::F32:
  case ElementType::Complex64:
    return std::bit_cast<float>(static_cast<uint32_t>(bits));
  case ElementType::F16:
    return support::halfToFloat(static_cast<uint16_t>(bits));
  case ElementType::BF16:
    return support::bf16ToFloat(static_cast<uint16_t>(bits));
  default:
    if (ir::isMiniFloat(e))
      return ir::miniFloatToDouble(static_cast<uint8_t>(bits), e);
    return std::bit_cast<double>(bits);
  }
}

void appendElement(std::vector<uint8_t>& raw, ElementType e, double real, double imag,
                   int64_t integer) {
  auto put = [&](const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    raw.insert(raw.end(), b, b + n);
  };
  switch (e) {
  case ElementType::F64: {
    put(&real, 8);
    return;
  }
  case ElementType::F32: {
    float f = static_cast<float>(real);
    put(&f, 4);
    return;
  }
  case ElementType::F16: {
    uint16_t h = support::floatToHalf(static_cast<float>(real));
    put(&h, 2);
    return;
  }
  case ElementType::BF16: {
    uint16_t h = support::floatToBf16(static_cast<float>(real));
    put(&h, 2);
    return;
  }
  case ElementType::Complex64: {
    float re = static_cast<float>(real), im = static_cast<float>(imag);
    put(&re, 4);
    put(&im, 4);
    return;
  }
  case ElementType::Complex128:
    put(&real, 8);
    put(&imag, 8);
    return;
  default:
    if (ir::isMiniFloat(e)) {
      uint8_t b = ir::miniFloatFromDouble(real, e);
      put(&b, 1);
      return;
    }
    break;
  }
  int bits = ir::elementBitWidth(e);
  size_t bytes = e == ElementType::I1 || bits < 8 ? 1 : static_cast<size_t>(bits / 8);
  put(&integer, bytes); // little-endian truncation
}

// Appends scalar `s` to `raw` as an element of type `e`; returns the error when `s` can't be one.
std::optional<std::string> appendScalar(const DenseScalar& s, ElementType e,
                                        std::vector<uint8_t>& raw) {
  double real = 0, imag = 0;
  int64_t integer = 0;
  if (s.isBool) {
    if (e != ElementType::I1)
      return "expected i1 type for 'true' or 'false' values";
    integer = s.text == "true";
  } else if (s.isFloat || ir::isFloatElement(e) || ir::isComplexElement(e)) {
    if (!ir::isFloatElement(e) && !ir::isComplexElement(e))
      return "expected integer elements, but parsed floating-point";
    if (s.isComplex && !ir::isComplexElement(e))
      return "complex literal for the non-complex element type '" +
             std::string(ir::elementTypeName(e)) + "'";
    real = floatLiteral(s.text, e);
    if (s.negative)
      real = -real;
    if (s.isComplex) {
      imag = floatLiteral(s.imagText, e);
      if (s.imagNegative)
        imag = -imag;
    }
  } else {
    uint64_t magnitude = std::strtoull(s.text.c_str(), nullptr, 0);
    integer = s.negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    if (e == ElementType::I1 && integer != 0 && integer != 1)
      return "integer constant out of range for type";
  }
  appendElement(raw, e, real, imag, integer);
  return std::nullopt;
}

} // namespace

// A dense literal as written, before its type is known: its scalars in order, or a hex string,
// or nothing at all (`dense<>`).
struct Parser::DenseLiteral {
  std::vector<DenseScalar> scalars;
  std::string hex;
  bool empty = false;
  // Nested lists: the shape from the first element at each depth (the rest are checked).
  std::vector<int64_t> counts;
  int depth = 0;
  int maxDepth = -1;
  bool shapeError = false;
};

bool Parser::parseDenseElements(Attribute& attr) {
  if (!expect(TokenKind::Less, "<"))
    return false;
  DenseLiteral literal;
  if (m_tok.is(TokenKind::String)) {
    literal.hex = std::string(m_tok.spelling.substr(1, m_tok.spelling.size() - 2));
    consume();
  } else if (m_tok.is(TokenKind::Greater)) {
    literal.empty = true;
  } else if (!parseDenseElement(literal)) {
    return false;
  }
  if (!expect(TokenKind::Greater, ">"))
    return false;
  Token typeTok = m_tok;
  Type type;
  if (!expect(TokenKind::Colon, ":") || !parseType(type))
    return false;
  bool unranked = type.kind() == Type::Kind::Opaque && type.opaqueText().starts_with("tensor<");
  if ((type.isTensor() && !type.hasStaticShape()) || unranked)
    return emitError(locOf(typeTok), "elements literal type must have static shape");
  if (!type.isTensor())
    return emitError(locOf(typeTok), "elements literal must be a shaped type");
  if (literal.shapeError)
    return emitError(locOf(typeTok), "tensor literal is invalid; ranks are not consistent between elements");
  auto storage = std::make_shared<ir::DenseElementsAttr>();
  storage->type = type;
  bool filled = literal.hex.empty() ? denseFromScalars(literal, typeTok, *storage)
                                    : denseFromHex(literal.hex, typeTok, *storage);
  if (!filled)
    return false;
  attr = Attribute(std::move(storage));
  return true;
}

// One element of a dense literal: a nested list `[...]` or a scalar.
bool Parser::parseDenseElement(DenseLiteral& literal) {
  if (!m_tok.is(TokenKind::LSquare))
    return parseDenseScalar(literal);
  if (literal.depth >= NestingGuard::kMaxNesting)
    return emitError("dense literal nested more than " +
                     std::to_string(NestingGuard::kMaxNesting) + " levels deep");
  consume();
  ++literal.depth;
  if (static_cast<int>(literal.counts.size()) < literal.depth)
    literal.counts.push_back(-1);
  int64_t n = 0;
  if (!m_tok.is(TokenKind::RSquare)) {
    do {
      if (!parseDenseElement(literal))
        return false;
      ++n;
    } while (consumeIf(TokenKind::Comma));
  }
  if (!expect(TokenKind::RSquare, "]"))
    return false;
  int64_t& count = literal.counts[literal.depth - 1];
  if (count == -1)
    count = n;
  else if (count != n)
    literal.shapeError = true;
  --literal.depth;
  return true;
}

// A scalar of a dense literal: `(re, im)`, `true` / `false`, or a number.
bool Parser::parseDenseScalar(DenseLiteral& literal) {
  if (literal.maxDepth == -1)
    literal.maxDepth = literal.depth;
  else if (literal.maxDepth != literal.depth)
    literal.shapeError = true;
  DenseScalar s;
  if (m_tok.is(TokenKind::LParen)) {
    consume();
    s.isComplex = s.isFloat = true;
    bool neg = consumeIf(TokenKind::Minus);
    if (!m_tok.is(TokenKind::Float) && !m_tok.is(TokenKind::Integer))
      return emitError("expected floating point literal");
    s.text = std::string(m_tok.spelling);
    s.negative = neg;
    consume();
    if (!expect(TokenKind::Comma, ","))
      return false;
    bool negIm = consumeIf(TokenKind::Minus);
    if (!m_tok.is(TokenKind::Float) && !m_tok.is(TokenKind::Integer))
      return emitError("expected floating point literal");
    s.imagText = std::string(m_tok.spelling);
    s.imagNegative = negIm;
    consume();
    if (!expect(TokenKind::RParen, ")"))
      return false;
  } else if (m_tok.isKeyword("true") || m_tok.isKeyword("false")) {
    s.isBool = true;
    s.text = std::string(m_tok.spelling);
    consume();
  } else {
    s.negative = consumeIf(TokenKind::Minus);
    if (!m_tok.is(TokenKind::Float) && !m_tok.is(TokenKind::Integer))
      return emitError("expected element literal of primitive type");
    s.isFloat = m_tok.is(TokenKind::Float);
    s.text = std::string(m_tok.spelling);
    consume();
  }
  literal.scalars.push_back(std::move(s));
  return true;
}

bool Parser::denseFromHex(const std::string& hex, const Token& typeTok,
                          ir::DenseElementsAttr& storage) {
  ElementType e = storage.type.elementType();
  if (hex.size() < 2 || hex.substr(0, 2) != "0x")
    return emitError(locOf(typeTok), "expected hex string for dense elements");
  for (size_t i = 2; i + 1 < hex.size(); i += 2) {
    std::optional<int> byte = support::parseInteger<int>(std::string_view(hex).substr(i, 2), 16);
    if (!byte)
      return emitError(locOf(typeTok), "expected hex digits in dense elements, got '" +
                                           hex.substr(i, 2) + "'");
    storage.raw.push_back(static_cast<uint8_t>(*byte));
  }
  size_t width = e == ElementType::I1 ? 1 : static_cast<size_t>(std::max(8, ir::elementBitWidth(e)) / 8);
  if (ir::isComplexElement(e))
    width = static_cast<size_t>(ir::elementBitWidth(e) / 8);
  if (storage.raw.size() == width && storage.type.numElements() != 1)
    storage.isSplat = true;
  else if (storage.raw.size() != width * static_cast<size_t>(storage.type.numElements()))
    return emitError(locOf(typeTok), "elements hex data size is invalid for provided type");
  return true;
}

bool Parser::denseFromScalars(const DenseLiteral& literal, const Token& typeTok,
                              ir::DenseElementsAttr& storage) {
  Type type = storage.type;
  const std::vector<int64_t>& literalShape = literal.counts;
  bool splat = !literal.empty && literalShape.empty() && literal.scalars.size() == 1;
  if (!splat && !literal.empty) {
    std::vector<int64_t> typeShape(type.shape().begin(), type.shape().end());
    if (literalShape != typeShape) {
      auto fmt = [](const std::vector<int64_t>& s) {
        std::string out = "[";
        for (size_t i = 0; i < s.size(); ++i)
          out += (i ? ", " : "") + std::to_string(s[i]);
        return out + "]";
      };
      return emitError(locOf(typeTok), "inferred shape of elements literal (" + fmt(literalShape) +
                                           ") does not match type (" + fmt(typeShape) + ")");
    }
  }
  if (literal.empty && type.numElements() != 0)
    return emitError(locOf(typeTok), "expected tensor literal for non-empty tensor type");
  storage.isSplat = splat && type.numElements() != 1;
  for (const DenseScalar& s : literal.scalars)
    if (std::optional<std::string> error = appendScalar(s, type.elementType(), storage.raw))
      return emitError(locOf(typeTok), *error);
  return true;
}

bool Parser::lookupParsedSdyAttribute(std::string_view name, Attribute& attr,
                                      std::string_view& rawText) {
  // Programs repeat a handful of shardings tens of thousands of times. A verbatim repeat reuses
  // the attribute parsed the first time: immutable attributes can be shared, which saves most of
  // the parse time and memory they would cost (MLIR uniques attributes in its context likewise).
  if (!m_tok.is(TokenKind::Less))
    return false;
  size_t offset = static_cast<size_t>(m_tok.spelling.data() - m_lexer.buffer().data());
  Token less = m_tok;
  std::string_view raw = m_lexer.skipBalancedAngles(offset, less.line, less.column);
  rawText = raw.empty() ? std::string_view() : std::string_view(name.data(), raw.data() + raw.size() - name.data());
  auto it = rawText.empty() ? m_sdyAttrCache.end() : m_sdyAttrCache.find(rawText);
  if (it != m_sdyAttrCache.end()) {
    attr = it->second;
    consume();
    return true;
  }
  // Not seen yet: go back to the `<` and parse it properly.
  m_lexer.reset(offset, less.line, less.column);
  consume();
  return false;
}

bool Parser::parseDialectAttribute(Attribute& attr) {
  std::string name(m_tok.spelling);
  Token nameTok = m_tok;
  consume();
  bool cacheable = name == "#sdy.sharding" || name == "#sdy.sharding_per_value" ||
                   name == "#sdy.op_sharding_rule";
  std::string_view rawText;
  if (cacheable && lookupParsedSdyAttribute(nameTok.spelling, attr, rawText))
    return true;
  if (!parseDialectAttributeBody(name, nameTok, attr))
    return false;
  if (cacheable && !rawText.empty())
    m_sdyAttrCache.emplace(rawText, attr);
  return true;
}

bool Parser::parseDialectAttributeBody(const std::string& name, const Token& nameTok,
                                       Attribute& attr) {
  if (name == "#sdy.sharding") {
    ir::TensorSharding s;
    if (!parseTensorSharding(s))
      return false;
    attr = Attribute::sharding(std::move(s));
    return true;
  }
  if (name == "#sdy.sharding_per_value") {
    std::vector<ir::TensorSharding> shardings;
    if (!parseShardingPerValue(shardings))
      return false;
    attr = Attribute::shardingPerValue(std::move(shardings));
    return true;
  }
  if (name == "#sdy.mesh") {
    ir::Mesh mesh;
    if (!parseMesh(mesh))
      return false;
    attr = Attribute::mesh(std::move(mesh));
    return true;
  }
  if (name == "#sdy.op_sharding_rule") {
    ir::OpShardingRule rule;
    if (!parseShardingRule(rule))
      return false;
    attr = Attribute::shardingRule(std::move(rule));
    return true;
  }
  if (!m_tok.is(TokenKind::Less)) {
    if (auto it = m_attrAliases.find(name); it != m_attrAliases.end()) {
      attr = it->second;
      return true;
    }
    if (name.find('.') == std::string::npos)
      return emitError(locOf(nameTok), "undefined symbol alias id '" + name.substr(1) + "'");
    attr = Attribute::opaque(name);
    return true;
  }
  if (!checkDimensionNumbers(name) || !checkConvDimensionNumbers(name))
    return false;
  size_t offset = static_cast<size_t>(m_tok.spelling.data() - m_lexer.buffer().data());
  std::string_view raw = m_lexer.skipBalancedAngles(offset, m_tok.line, m_tok.column);
  if (raw.empty())
    return emitError("unbalanced '<' in dialect attribute");
  consume();
  std::string body = opaqueText(raw);
  if (!checkStablehloAttributeInvariants(name, nameTok, body))
    return false;
  attr = Attribute::opaque(name + body);
  return true;
}

} // namespace shardscope::io::mlir::detail
