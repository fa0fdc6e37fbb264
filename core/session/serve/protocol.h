#pragma once
// The input side of `serve`'s JSON-lines protocol (`app/cli/SERVE_PROTOCOL.md`), apart from the
// session it drives: splitting the byte stream into request lines within a length bound, and
// reading one request with its nesting bounded. Kept apart from the server so that a fuzzer can
// drive it with arbitrary bytes. (The protocol's identity is in identity.h.)

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace shardscope::session::serve {


/// JSON nested deeper than this is refused before it is parsed: the parsed value is freed and
/// echoed back recursively, so unbounded nesting would overflow the stack.
inline constexpr int kMaxJsonDepth = 100;
/// The default of `--max-line-bytes`, the longest request line accepted.
inline constexpr int64_t kDefaultMaxLineBytes = int64_t{64} << 20;

/// Splits bytes into lines. Each byte is scanned once, so a long line costs linear time; a line
/// longer than the limit is dropped as it arrives (memory stays bounded) and reported as too long.
class LineFramer {
public:
  explicit LineFramer(int64_t maxBytes);
  /// Adds bytes read from the stream.
  void append(std::string_view bytes) { m_buffer.append(bytes); }
  /// Marks the end of the stream: a last line without a newline is then complete.
  void finish() { m_eof = true; }
  /// Takes the next complete line into `line` (without its newline); `tooLong` tells that it
  /// exceeded the limit (`line` is then empty). False when no complete line is buffered yet (or,
  /// after `finish`, none is left).
  bool next(std::string& line, bool& tooLong);
  /// Whether every line was taken after `finish`.
  bool atEnd() const { return m_eof && m_buffer.empty() && !m_skipping; }
  /// The 1-based number of the line `next` returned last.
  int64_t lineNumber() const { return m_lineNumber; }

private:
  size_t m_maxBytes;
  std::string m_buffer;
  size_t m_scanned = 0; ///< bytes of `m_buffer` known to hold no newline
  bool m_skipping = false;
  bool m_eof = false;
  int64_t m_lineNumber = 0;
};

/// Where a request came from, for messages: `<stdin>:LINE:COL`.
std::string requestLoc(int64_t line, int64_t column);

/// The 1-based column of the first bracket of `text` (JSON) nested deeper than `maxDepth`
/// (brackets in strings do not count), or 0 when the nesting stays within bounds.
size_t tooDeepAt(std::string_view text, int maxDepth);

/// Reads request line `lineNumber` as a JSON object. Throws `std::runtime_error` with a message
/// located at the line and column (`<stdin>:3:17: ...`) when it is too long (`tooLong`, the limit
/// being `maxLineBytes`), nested too deeply, not JSON, or not an object.
nlohmann::json parseRequest(const std::string& line, int64_t lineNumber, bool tooLong,
                            int64_t maxLineBytes);

/// One response line: `response` as compact JSON (invalid UTF-8 replaced) and a newline.
std::string responseLine(const nlohmann::json& response);

} // namespace shardscope::session::serve
