#include "core/session/serve/protocol.h"

#include <algorithm>
#include <stdexcept>

namespace shardscope::session::serve {

LineFramer::LineFramer(int64_t maxBytes)
    : m_maxBytes(static_cast<size_t>(std::max<int64_t>(maxBytes, 1))) {}

bool LineFramer::next(std::string& line, bool& tooLong) {
  size_t nl = m_buffer.find('\n', m_scanned);
  if (nl != std::string::npos) {
    tooLong = m_skipping || nl > m_maxBytes;
    line = tooLong ? std::string() : m_buffer.substr(0, nl);
    m_buffer.erase(0, nl + 1);
    m_scanned = 0;
    m_skipping = false;
    ++m_lineNumber;
    return true;
  }
  m_scanned = m_buffer.size();
  if (m_buffer.size() > m_maxBytes) {
    // Drop what has arrived of an over-long line; its end is still to come.
    m_skipping = true;
    m_buffer.clear();
    m_scanned = 0;
  }
  if (!m_eof || (m_buffer.empty() && !m_skipping))
    return false;
  tooLong = m_skipping;
  line = tooLong ? std::string() : std::move(m_buffer);
  m_buffer.clear();
  m_scanned = 0;
  m_skipping = false;
  ++m_lineNumber;
  return true;
}

std::string requestLoc(int64_t line, int64_t column) {
  return "<stdin>:" + std::to_string(line) + ":" + std::to_string(column);
}

size_t tooDeepAt(std::string_view text, int maxDepth) {
  int depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > maxDepth)
        return i + 1;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return 0;
}

nlohmann::json parseRequest(const std::string& line, int64_t lineNumber, bool tooLong,
                            int64_t maxLineBytes) {
  if (tooLong)
    throw std::runtime_error(requestLoc(lineNumber, 1) + ": request longer than " +
                             std::to_string(maxLineBytes) + " bytes (raise with --max-line-bytes)");
  if (size_t column = tooDeepAt(line, kMaxJsonDepth))
    throw std::runtime_error(requestLoc(lineNumber, static_cast<int64_t>(column)) +
                             ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                             " levels");
  nlohmann::json request;
  try {
    request = nlohmann::json::parse(line);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(requestLoc(lineNumber, static_cast<int64_t>(std::max<size_t>(e.byte, 1))) +
                             ": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    // Not a syntax error but a value the parser cannot hold (a number overflowing a double, found
    // by the serve fuzzer): the parser does not say where.
    throw std::runtime_error(requestLoc(lineNumber, 1) + ": " + e.what());
  }
  if (!request.is_object())
    throw std::runtime_error(requestLoc(lineNumber, 1) + ": a request must be a JSON object");
  return request;
}

std::string responseLine(const nlohmann::json& response) {
  return response.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace shardscope::session::serve
