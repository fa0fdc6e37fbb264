#include "core/support/verify_diagnostics.h"

#include "core/support/checked_math.h"
#include "core/support/parse_number.h"
#include "core/support/source_manager.h"

#include <regex>

namespace shardscope::support {

namespace {

bool isAnnotationLine(std::string_view line) {
  return line.find("expected-") != std::string_view::npos &&
         line.find("{{") != std::string_view::npos;
}

// Converts the body of an `expected-*-re` annotation to an ECMAScript regex: text outside
// `{{...}}` is literal, text inside is a regex.
std::string toRegex(std::string_view body) {
  std::string out;
  size_t i = 0;
  while (i < body.size()) {
    size_t open = body.find("{{", i);
    std::string_view literal = body.substr(i, open == std::string_view::npos ? body.size() - i
                                                                             : open - i);
    for (char c : literal) {
      if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos)
        out += '\\';
      out += c;
    }
    if (open == std::string_view::npos)
      break;
    size_t close = body.find("}}", open + 2);
    if (close == std::string_view::npos)
      close = body.size();
    out += '(';
    out.append(body.substr(open + 2, close - open - 2));
    out += ')';
    i = close + 2;
  }
  return out;
}

} // namespace

DiagnosticVerifier::DiagnosticVerifier(const SourceManager& sources, uint32_t fileId)
    : m_fileId(fileId) {
  static const std::regex pattern(
      R"(expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\})");
  std::string_view text = sources.text(fileId);
  uint32_t lineCount = 1;
  for (char c : text)
    lineCount += c == '\n';

  std::vector<size_t> pendingBelow; // expectations waiting for the next non-annotation line
  for (uint32_t line = 1; line <= lineCount; ++line) {
    std::string_view lineText = sources.lineText(fileId, line);
    if (!isAnnotationLine(lineText)) {
      for (size_t idx : pendingBelow)
        m_expectations[idx].line = line;
      pendingBelow.clear();
      continue;
    }
    std::string owned(lineText);
    std::smatch m;
    if (!std::regex_search(owned, m, pattern))
      continue;
    Expectation e;
    const std::string kind = m[1].str();
    e.severity = kind == "error"     ? Severity::Error
                 : kind == "warning" ? Severity::Warning
                 : kind == "remark"  ? Severity::Remark
                                     : Severity::Note;
    e.isRegex = m[2].matched;
    e.text = m[5].str();
    e.where = {fileId, line, static_cast<uint32_t>(m.position(0) + 1), 0};
    e.line = line;
    if (m[4].matched) {
      const std::string offset = m[4].str();
      if (offset == "unknown") {
        e.line = 0;
      } else if (offset == "below") {
        pendingBelow.push_back(m_expectations.size());
      } else if (offset == "above") {
        // The previous line that holds no annotation.
        uint32_t target = line;
        while (target > 1 && isAnnotationLine(sources.lineText(fileId, target - 1)))
          --target;
        e.line = target > 1 ? target - 1 : 0;
      } else {
        std::optional<long> delta = parseInteger<long>(
            offset.starts_with('+') ? std::string_view(offset).substr(1) : std::string_view(offset));
        // The offset is user text: `line + delta` must not overflow on the way to the check.
        std::optional<int64_t> sum =
            delta ? checkedAdd(static_cast<int64_t>(line), static_cast<int64_t>(*delta))
                  : std::nullopt;
        int64_t target = sum.value_or(0);
        if (!sum || target < 1 || target > static_cast<int64_t>(lineCount)) {
          m_malformed.push_back({Severity::Error,
                                 "expected diagnostic offset points outside the file", e.where, {}});
          continue;
        }
        e.line = static_cast<uint32_t>(target);
      }
    }
    if (e.text.empty()) {
      m_malformed.push_back(
          {Severity::Error, "expected diagnostic message must not be empty", e.where, {}});
      continue;
    }
    m_expectations.push_back(std::move(e));
  }
}

bool DiagnosticVerifier::matches(const Expectation& e, const std::string& message) const {
  if (!e.isRegex)
    return message.find(e.text) != std::string::npos;
  try {
    return std::regex_search(message, std::regex(toRegex(e.text)));
  } catch (const std::regex_error&) {
    return false;
  }
}

bool DiagnosticVerifier::verify(const std::vector<Diagnostic>& emitted, DiagnosticSink& out) {
  bool ok = m_malformed.empty();
  for (Diagnostic& d : m_malformed)
    out.report(d);

  auto check = [&](Severity severity, const std::string& message, SourceLocation loc) {
    uint32_t line = (loc.isValid() && loc.fileId == m_fileId) ? loc.line : 0;
    for (Expectation& e : m_expectations) {
      if (!e.matched && e.severity == severity && e.line == line && matches(e, message)) {
        e.matched = true;
        return;
      }
    }
    ok = false;
    out.report({Severity::Error,
                std::string("unexpected ") + severityName(severity) + ": " + message, loc, {}});
  };

  for (const Diagnostic& d : emitted) {
    check(d.severity, d.message, d.loc);
    for (const DiagnosticNote& n : d.notes)
      check(Severity::Note, n.message, n.loc.isValid() ? n.loc : d.loc);
  }
  for (const Expectation& e : m_expectations) {
    if (e.matched)
      continue;
    ok = false;
    out.report({Severity::Error,
                std::string("expected ") + severityName(e.severity) + " \"" + e.text +
                    "\" was not produced",
                e.where, {}});
  }
  return ok;
}

} // namespace shardscope::support
