#pragma once

#include "core/support/diagnostic.h"
#include "core/support/source_manager.h"

#include <optional>
#include <string>
#include <vector>

namespace shardscope::cli {

/// Reads `path` (or standard input for "-") into `text`. Reports a clear error to stderr and
/// returns false when the file cannot be read.
bool readInput(const std::string& path, std::string& text);
/// The same without printing: `error` says why it failed.
bool readInputText(const std::string& path, std::string& text, std::string& error);

/// Writes `text` to `path` atomically (a temporary file renamed into place), or to standard
/// output when `path` is empty or "-". Returns false after printing an error.
bool writeOutput(const std::string& path, const std::string& text);

/// A sink that prints `file:line:col: error: message`, the source line and a caret to stderr.
class StderrSink final : public support::DiagnosticSink {
public:
  explicit StderrSink(const support::SourceManager& sources) : m_sources(sources) {}
  void report(support::Diagnostic diagnostic) override;

private:
  const support::SourceManager& m_sources;
};

/// Returns true when `text` holds nothing but whitespace and `//` comments.
bool isBlank(std::string_view text);

/// Entry points of the subcommands; each returns the process exit code.
int runOpt(const std::vector<std::string>& args);
int runCheck(const std::vector<std::string>& args);
int runInspect(const std::vector<std::string>& args);
int runExplain(const std::vector<std::string>& args);
int runTypes(const std::vector<std::string>& args);
int runInterpret(const std::vector<std::string>& args);
int runRun(const std::vector<std::string>& args);
int runPartition(const std::vector<std::string>& args);
int runReport(const std::vector<std::string>& args);
int runServe(const std::vector<std::string>& args);
int runGrad(const std::vector<std::string>& args);
int runTranspose(const std::vector<std::string>& args);

} // namespace shardscope::cli
