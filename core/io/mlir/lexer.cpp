#include "core/io/mlir/lexer.h"

#include <array>
#include <cctype>

namespace shardscope::io::mlir {

namespace {
// Character classes as a table (std::isalnum and friends are out-of-line, locale-aware calls,
// which showed up in profiles of 100k-op files). ASCII only, as in MLIR's lexer.
enum : uint8_t { kIdentStart = 1, kIdentChar = 2, kSuffixIdChar = 4 };
constexpr std::array<uint8_t, 256> kCharClass = [] {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    bool digit = c >= '0' && c <= '9';
    if (alpha || c == '_')
      t[c] |= kIdentStart;
    if (alpha || digit || c == '_' || c == '$' || c == '.')
      t[c] |= kIdentChar | kSuffixIdChar;
    if (c == '-')
      t[c] |= kSuffixIdChar;
  }
  return t;
}();
bool hasClass(char c, uint8_t cls) {
  return (kCharClass[static_cast<unsigned char>(c)] & cls) != 0;
}
bool isIdentStart(char c) { return hasClass(c, kIdentStart); }

// Returns how many characters of class `charClass` start at `pos`. The classes never include
// '\n', so skipping them moves the column only.
size_t countWhile(std::string_view buffer, size_t pos, uint8_t charClass) {
  size_t end = pos;
  while (end < buffer.size() && hasClass(buffer[end], charClass))
    ++end;
  return end - pos;
}
} // namespace

void Lexer::advance(size_t n) {
  for (size_t i = 0; i < n && m_pos < m_buffer.size(); ++i, ++m_pos) {
    if (m_buffer[m_pos] == '\n') {
      ++m_line;
      m_column = 1;
    } else {
      ++m_column;
    }
  }
}

void Lexer::reset(size_t offset, uint32_t line, uint32_t column) {
  m_pos = offset;
  m_line = line;
  m_column = column;
}

Token Lexer::make(TokenKind kind, size_t begin, uint32_t line, uint32_t column) {
  return Token{kind, m_buffer.substr(begin, m_pos - begin), line, column};
}

Token Lexer::next() {
  // Skip whitespace and comments.
  while (m_pos < m_buffer.size()) {
    char c = m_buffer[m_pos];
    if (c == ' ' || c == '\t' || c == '\r') {
      ++m_pos;
      ++m_column;
    } else if (c == '\n') {
      ++m_pos;
      ++m_line;
      m_column = 1;
    } else if (c == '/' && m_pos + 1 < m_buffer.size() && m_buffer[m_pos + 1] == '/') {
      while (m_pos < m_buffer.size() && m_buffer[m_pos] != '\n')
        advance(1);
    } else {
      break;
    }
  }
  size_t begin = m_pos;
  uint32_t line = m_line, column = m_column;
  if (m_pos >= m_buffer.size())
    return Token{TokenKind::Eof, m_buffer.substr(m_buffer.size()), line, column};

  char c = m_buffer[m_pos];
  auto peek = [&](size_t k) { return m_pos + k < m_buffer.size() ? m_buffer[m_pos + k] : '\0'; };
  auto single = [&](TokenKind k, size_t n = 1) {
    advance(n);
    return make(k, begin, line, column);
  };
  switch (c) {
  case '(':
    return single(TokenKind::LParen);
  case ')':
    return single(TokenKind::RParen);
  case '[':
    return single(TokenKind::LSquare);
  case ']':
    return single(TokenKind::RSquare);
  case '{':
    if (peek(1) == '-' && peek(2) == '#')
      return single(TokenKind::FileMetadataBegin, 3);
    return single(TokenKind::LBrace);
  case '}':
    return single(TokenKind::RBrace);
  case '<':
    return single(TokenKind::Less);
  case '>':
    return single(TokenKind::Greater);
  case ',':
    return single(TokenKind::Comma);
  case ':':
    if (peek(1) == ':')
      return single(TokenKind::ColonColon, 2);
    return single(TokenKind::Colon);
  case '=':
    return single(TokenKind::Equal);
  case '?':
    return single(TokenKind::Question);
  case '*':
    return single(TokenKind::Star);
  case '+':
    return single(TokenKind::Plus);
  case '-':
    if (peek(1) == '>')
      return single(TokenKind::Arrow, 2);
    return single(TokenKind::Minus);
  case '.':
    if (peek(1) == '.' && peek(2) == '.')
      return single(TokenKind::Ellipsis, 3);
    break;
  case '"':
    return lexString(begin, line, column);
  case '%':
    advance(1);
    return lexIdentifierTail(TokenKind::PercentIdentifier, begin, line, column);
  case '^':
    advance(1);
    return lexIdentifierTail(TokenKind::CaretIdentifier, begin, line, column);
  case '#':
    if (peek(1) == '-' && peek(2) == '}')
      return single(TokenKind::FileMetadataEnd, 3);
    advance(1);
    return lexIdentifierTail(TokenKind::HashIdentifier, begin, line, column);
  case '!':
    advance(1);
    return lexIdentifierTail(TokenKind::BangIdentifier, begin, line, column);
  case '@':
    advance(1);
    if (peek(0) == '"') {
      Token s = lexString(m_pos, m_line, m_column);
      if (s.kind == TokenKind::Error)
        return s;
      return make(TokenKind::AtIdentifier, begin, line, column);
    }
    return lexIdentifierTail(TokenKind::AtIdentifier, begin, line, column);
  default:
    break;
  }
  if (std::isdigit(static_cast<unsigned char>(c)))
    return lexNumber(begin, line, column);
  if (isIdentStart(c)) {
    size_t n = countWhile(m_buffer, m_pos, kIdentChar);
    m_pos += n;
    m_column += static_cast<uint32_t>(n);
    return make(TokenKind::BareIdentifier, begin, line, column);
  }
  advance(1);
  return make(TokenKind::Error, begin, line, column);
}

Token Lexer::lexIdentifierTail(TokenKind kind, size_t begin, uint32_t line, uint32_t column) {
  size_t n = countWhile(m_buffer, m_pos, kSuffixIdChar);
  if (n == 0)
    return make(TokenKind::Error, begin, line, column);
  m_pos += n;
  m_column += static_cast<uint32_t>(n);
  return make(kind, begin, line, column);
}

Token Lexer::lexNumber(size_t begin, uint32_t line, uint32_t column) {
  auto at = [&](size_t k) { return m_pos + k < m_buffer.size() ? m_buffer[m_pos + k] : '\0'; };
  if (at(0) == '0' && at(1) == 'x' && std::isxdigit(static_cast<unsigned char>(at(2)))) {
    advance(2);
    while (std::isxdigit(static_cast<unsigned char>(at(0))))
      advance(1);
    return make(TokenKind::Integer, begin, line, column);
  }
  while (std::isdigit(static_cast<unsigned char>(at(0))))
    advance(1);
  if (at(0) != '.')
    return make(TokenKind::Integer, begin, line, column);
  advance(1);
  while (std::isdigit(static_cast<unsigned char>(at(0))))
    advance(1);
  if ((at(0) == 'e' || at(0) == 'E') &&
      (std::isdigit(static_cast<unsigned char>(at(1))) ||
       ((at(1) == '+' || at(1) == '-') && std::isdigit(static_cast<unsigned char>(at(2)))))) {
    advance(2);
    while (std::isdigit(static_cast<unsigned char>(at(0))))
      advance(1);
  }
  return make(TokenKind::Float, begin, line, column);
}

Token Lexer::lexString(size_t begin, uint32_t line, uint32_t column) {
  advance(1); // opening quote
  while (m_pos < m_buffer.size()) {
    char c = m_buffer[m_pos];
    if (c == '"') {
      advance(1);
      return make(TokenKind::String, begin, line, column);
    }
    if (c == '\n')
      break;
    if (c == '\\')
      advance(1);
    advance(1);
  }
  return make(TokenKind::Error, begin, line, column);
}

std::string_view Lexer::skipBalanced(size_t offset, uint32_t line, uint32_t column, char open,
                                     char close) {
  // Walk characters from `offset`, tracking nesting; `->` is an arrow, not a closing angle.
  reset(offset, line, column);
  int depth = 0;
  size_t begin = m_pos;
  while (m_pos < m_buffer.size()) {
    char c = m_buffer[m_pos];
    if (c == '"') {
      Token s = lexString(m_pos, m_line, m_column);
      if (s.kind == TokenKind::Error)
        return {};
      continue;
    }
    if (c == '-' && m_pos + 1 < m_buffer.size() && m_buffer[m_pos + 1] == '>') {
      advance(2);
      continue;
    }
    if (c == '/' && m_pos + 1 < m_buffer.size() && m_buffer[m_pos + 1] == '/') {
      // A comment is whitespace (the attribute's text drops it): its brackets do not count.
      while (m_pos < m_buffer.size() && m_buffer[m_pos] != '\n')
        advance(1);
      continue;
    }
    if (c == open || c == '(' || c == '[' || c == '{' || (open == '<' && c == '<')) {
      ++depth;
    } else if (c == close || c == ')' || c == ']' || c == '}' || (open == '<' && c == '>')) {
      --depth;
      if (depth == 0) {
        advance(1);
        return m_buffer.substr(begin, m_pos - begin);
      }
      if (depth < 0)
        return {};
    }
    advance(1);
  }
  return {};
}

std::string_view Lexer::skipBalancedAngles(size_t offset, uint32_t line, uint32_t column) {
  return skipBalanced(offset, line, column, '<', '>');
}
std::string_view Lexer::skipBalancedParens(size_t offset, uint32_t line, uint32_t column) {
  return skipBalanced(offset, line, column, '(', ')');
}

} // namespace shardscope::io::mlir
