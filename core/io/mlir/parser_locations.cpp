// Debug locations (`loc(...)` and `#locN = loc(...)` aliases) and the file metadata section
// (`{-# dialect_resources: {...} #-}`) with the `dense_resource<...>` attributes that use it.
#include "core/io/mlir/detail/parser.h"

#include "core/support/parse_number.h"

#include <charconv>

namespace shardscope::io::mlir::detail {

using ir::DebugLoc;
using ir::DebugLocation;
using support::SourceLocation;

namespace {
bool isHexDigit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
} // namespace

bool Parser::parseLocationUInt(uint32_t& value) {
  if (!m_tok.is(TokenKind::Integer))
    return emitError("expected integer line or column number in location");
  std::string_view s = m_tok.spelling;
  auto r = std::from_chars(s.data(), s.data() + s.size(), value);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size())
    return emitError("invalid line or column number '" + std::string(s) + "' in location");
  consume();
  return true;
}

bool Parser::parseLocationAliasUse(DebugLoc& out) {
  std::string_view name = m_tok.spelling;
  SourceLocation at = loc();
  consume();
  if (auto it = m_locAliases.find(name); it != m_locAliases.end()) {
    out = it->second;
    return true;
  }
  // MLIR prints `loc(#loc3)` inside the module and defines `#loc3` after it: reserve the entry
  // now and fill it in when the definition comes.
  out = m_module->locations().reserve();
  m_locAliases.emplace(name, out);
  m_pendingLocAliases.emplace(name, at);
  return true;
}

bool Parser::parseLocationBody(DebugLoc& out) {
  NestingGuard nesting(m_attributeDepth);
  if (nesting.tooDeep())
    return emitError("locations nested more than " + std::to_string(NestingGuard::kMaxNesting) +
                     " levels deep");
  ir::LocationTable& table = m_module->locations();
  if (m_tok.is(TokenKind::HashIdentifier))
    return parseLocationAliasUse(out);
  if (consumeKeywordIf("unknown")) {
    out = ir::kUnknownLoc;
    return true;
  }
  if (consumeKeywordIf("callsite")) {
    DebugLoc callee = 0, caller = 0;
    if (!expect(TokenKind::LParen, "(") || !parseLocationBody(callee) || !expectKeyword("at") ||
        !parseLocationBody(caller) || !expect(TokenKind::RParen, ")"))
      return false;
    DebugLocation l;
    l.kind = DebugLocation::Kind::CallSite;
    l.children = {callee, caller};
    out = table.add(std::move(l));
    return true;
  }
  if (consumeKeywordIf("fused")) {
    DebugLocation l;
    l.kind = DebugLocation::Kind::Fused;
    if (consumeIf(TokenKind::Less)) {
      ir::Attribute metadata;
      if (!parseAttribute(metadata) || !expect(TokenKind::Greater, ">"))
        return false;
      l.text = metadata.str();
    }
    if (!expect(TokenKind::LSquare, "["))
      return false;
    if (!m_tok.is(TokenKind::RSquare)) {
      do {
        DebugLoc part = 0;
        if (!parseLocationBody(part))
          return false;
        l.children.push_back(part);
      } while (consumeIf(TokenKind::Comma));
    }
    if (!expect(TokenKind::RSquare, "]"))
      return false;
    out = table.add(std::move(l));
    return true;
  }
  if (!m_tok.is(TokenKind::String))
    return emitError("expected location instance");
  DebugLocation l;
  parseString(l.text);
  if (consumeIf(TokenKind::Colon)) {
    l.kind = DebugLocation::Kind::FileLineCol;
    if (!parseLocationUInt(l.line) || !expect(TokenKind::Colon, ":") ||
        !parseLocationUInt(l.column))
      return false;
    if (consumeKeywordIf("to")) {
      l.endLine = l.line;
      if (m_tok.is(TokenKind::Integer) && !parseLocationUInt(l.endLine))
        return false;
      if (!expect(TokenKind::Colon, ":") || !parseLocationUInt(l.endColumn))
        return false;
    }
    out = table.add(std::move(l));
    return true;
  }
  l.kind = DebugLocation::Kind::Name;
  if (consumeIf(TokenKind::LParen)) {
    DebugLoc child = 0;
    if (!parseLocationBody(child) || !expect(TokenKind::RParen, ")"))
      return false;
    l.children.push_back(child);
  }
  out = table.add(std::move(l));
  return true;
}

bool Parser::parseTrailingLocation(DebugLoc* out) {
  consume(); // `loc`
  if (!expect(TokenKind::LParen, "("))
    return false;
  DebugLoc parsed = ir::kUnknownLoc;
  if (!parseLocationBody(parsed) || !expect(TokenKind::RParen, ")"))
    return false;
  if (out)
    *out = parsed;
  return true;
}

bool Parser::parseLocationAliasDefinition(const Token& name) {
  // `#loc3 = loc(...)`; the `=` has been consumed and the current token is `loc`.
  DebugLoc value = ir::kUnknownLoc;
  if (!parseTrailingLocation(&value))
    return false;
  ir::LocationTable& table = m_module->locations();
  auto pending = m_pendingLocAliases.find(name.spelling);
  if (pending != m_pendingLocAliases.end()) {
    // Used before: fill the reserved entry with a copy of what the alias stands for.
    table.set(m_locAliases.at(name.spelling), table.get(value));
    m_pendingLocAliases.erase(pending);
    return true;
  }
  if (m_locAliases.count(name.spelling) || m_attrAliases.count(std::string(name.spelling)))
    return emitError(locOf(name), "redefinition of attribute alias id '" +
                                      std::string(name.spelling.substr(1)) + "'");
  m_locAliases.emplace(name.spelling, value);
  return true;
}

bool Parser::checkLocationAliasesDefined() {
  if (m_pendingLocAliases.empty())
    return true;
  // Report the use that comes first in the text, so the error does not depend on hashing.
  const std::pair<const std::string_view, SourceLocation>* first = nullptr;
  for (const auto& entry : m_pendingLocAliases)
    if (!first || entry.second.line < first->second.line ||
        (entry.second.line == first->second.line && entry.second.column < first->second.column))
      first = &entry;
  return emitError(first->second, "operation location alias '" +
                                      std::string(first->first.substr(1)) + "' was never defined");
}

// ---------------------------------------------------------------------------------------------
// Dialect resources

std::shared_ptr<ir::ResourceBlob> Parser::resourceBlob(const std::string& key) {
  auto& blob = m_resources[key];
  if (!blob) {
    blob = std::make_shared<ir::ResourceBlob>();
    blob->key = key;
  }
  return blob;
}

bool Parser::parseDenseResource(ir::Attribute& attr) {
  // `dense_resource` has been consumed.
  if (!expect(TokenKind::Less, "<"))
    return false;
  SourceLocation keyLoc = loc();
  std::string key;
  if (m_tok.is(TokenKind::String)) {
    parseString(key);
  } else if (m_tok.is(TokenKind::BareIdentifier)) {
    key = std::string(m_tok.spelling);
    consume();
  } else {
    return emitError("expected identifier key for 'resource' entry");
  }
  if (!expect(TokenKind::Greater, ">"))
    return false;
  if (!expect(TokenKind::Colon, ":"))
    return false;
  ir::Type type;
  SourceLocation typeLoc = loc();
  if (!parseType(type))
    return false;
  if (!type.isTensor())
    return emitError(typeLoc, "expected a shaped type for 'dense_resource' attribute");
  auto storage = std::make_shared<ir::DenseResourceAttr>();
  storage->type = type;
  storage->blob = resourceBlob(key);
  m_resourceUses.emplace(key, keyLoc);
  attr = ir::Attribute(std::move(storage));
  return true;
}

bool Parser::parseResourceBlobValue(const std::string& key, const Token& valueTok) {
  std::string hex;
  parseString(hex);
  if (hex.size() < 10 || !hex.starts_with("0x") || hex.size() % 2 != 0)
    return emitError(locOf(valueTok), "expected hex string blob for key '" + key + "'");
  std::vector<uint8_t> bytes;
  bytes.reserve((hex.size() - 2) / 2);
  for (size_t i = 2; i + 1 < hex.size(); i += 2) {
    if (!isHexDigit(hex[i]) || !isHexDigit(hex[i + 1]))
      return emitError(locOf(valueTok), "expected hex string blob for key '" + key + "'");
    bytes.push_back(static_cast<uint8_t>(
        support::parseInteger<int>(std::string_view(hex).substr(i, 2), 16).value_or(0)));
  }
  std::shared_ptr<ir::ResourceBlob> blob = resourceBlob(key);
  if (blob->defined)
    return emitError(locOf(valueTok), "duplicate resource entry for key '" + key + "'");
  blob->alignment = static_cast<uint32_t>(bytes[0]) | static_cast<uint32_t>(bytes[1]) << 8 |
                    static_cast<uint32_t>(bytes[2]) << 16 | static_cast<uint32_t>(bytes[3]) << 24;
  blob->data.assign(bytes.begin() + 4, bytes.end());
  blob->defined = true;
  return true;
}

bool Parser::parseResourceGroup(bool builtinBlobs) {
  // `{ key: value, ... }` where a value is a hex blob string, a bool or another string.
  if (!expect(TokenKind::LBrace, "{"))
    return false;
  if (consumeIf(TokenKind::RBrace))
    return true;
  do {
    std::string key;
    if (m_tok.is(TokenKind::String)) {
      parseString(key);
    } else if (m_tok.is(TokenKind::BareIdentifier)) {
      key = std::string(m_tok.spelling);
      consume();
    } else {
      return emitError("expected identifier key for 'resource' entry");
    }
    if (!expect(TokenKind::Colon, ":"))
      return false;
    Token valueTok = m_tok;
    if (builtinBlobs) {
      if (!m_tok.is(TokenKind::String))
        return emitError("expected hex string blob for key '" + key + "'");
      if (!parseResourceBlobValue(key, valueTok))
        return false;
    } else if (m_tok.is(TokenKind::String) || m_tok.isKeyword("true") ||
               m_tok.isKeyword("false")) {
      consume(); // Resources of other dialects are accepted and dropped.
    } else {
      return emitError("expected string, bool or hex blob for key '" + key + "'");
    }
  } while (consumeIf(TokenKind::Comma));
  return expect(TokenKind::RBrace, "}");
}

bool Parser::parseFileMetadata() {
  // `{-# dialect_resources: { dialect: { ... } }, external_resources: { ... } #-}`
  consume(); // `{-#`
  if (!m_tok.is(TokenKind::FileMetadataEnd)) {
    do {
      Token section = m_tok;
      if (!m_tok.is(TokenKind::BareIdentifier))
        return emitError("expected identifier key in file metadata dictionary");
      consume();
      bool dialects = section.spelling == "dialect_resources";
      if (!dialects && section.spelling != "external_resources")
        return emitError(locOf(section), "unknown key '" + std::string(section.spelling) +
                                             "' in file metadata dictionary");
      if (!expect(TokenKind::Colon, ":") || !expect(TokenKind::LBrace, "{"))
        return false;
      if (!consumeIf(TokenKind::RBrace)) {
        do {
          if (!m_tok.is(TokenKind::BareIdentifier) && !m_tok.is(TokenKind::String))
            return emitError("expected identifier key for 'resource' entry");
          bool builtin = dialects && m_tok.spelling == "builtin";
          consume();
          if (!expect(TokenKind::Colon, ":") || !parseResourceGroup(builtin))
            return false;
        } while (consumeIf(TokenKind::Comma));
        if (!expect(TokenKind::RBrace, "}"))
          return false;
      }
    } while (consumeIf(TokenKind::Comma));
  }
  return expect(TokenKind::FileMetadataEnd, "#-}");
}

bool Parser::checkResourcesDefined() {
  // `__elided__` is what MLIR prints for a resource it was told not to print; such a program
  // loads (its shardings can be studied) and only running the constant fails.
  const std::pair<const std::string, SourceLocation>* first = nullptr;
  for (const auto& use : m_resourceUses) {
    if (use.first == "__elided__" || m_resources.at(use.first)->defined)
      continue;
    if (!first || use.second.line < first->second.line ||
        (use.second.line == first->second.line && use.second.column < first->second.column))
      first = &use;
  }
  if (!first)
    return true;
  return emitError(first->second, "dense resource '" + first->first +
                                      "' is not defined in the file's dialect_resources");
}

} // namespace shardscope::io::mlir::detail
