#pragma once

#include "core/support/diagnostic.h"
#include "core/support/source_manager.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::cli {

/// True in sanitizer builds: commands that leave their program to the OS at exit (its
/// destructor only costs time then) free it there, so leak checkers see everything freed.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kLeakCheck = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
constexpr bool kLeakCheck = true;
#else
constexpr bool kLeakCheck = false;
#endif
#else
constexpr bool kLeakCheck = false;
#endif

/// The most bytes an input file (or standard input) may hold: 1 GiB, or the value of the
/// environment variable `SHARDSCOPE_MAX_INPUT_BYTES`. It bounds reading an endless stream.
inline constexpr int64_t kDefaultMaxInputBytes = int64_t{1} << 30;
int64_t maxInputBytes();

/// Reads `path` (or standard input for "-") into `text`. Reports a clear error to stderr and
/// returns false when the file cannot be read.
bool readInput(const std::string& path, std::string& text);
/// The same without printing: `error` says why it failed. Anything but a regular file (a device,
/// a FIFO, a socket) is refused without opening it, and more than `maxInputBytes()` is refused.
bool readInputText(const std::string& path, std::string& text, std::string& error);

/// Writes `text` to `path` atomically (a temporary file renamed into place), or to standard
/// output when `path` is empty or "-". Returns false after printing an error.
bool writeOutput(const std::string& path, const std::string& text);
/// Writes `text` to standard output and flushes it. Returns false after printing an error when
/// the write fails (a full disk, a closed pipe).
bool writeStdout(std::string_view text);
/// Flushes standard output at the end of a command. Returns false after printing an error when
/// anything written to it was lost, so that the command fails instead of exiting 0 on a
/// truncated output.
bool finishStdout();

/// Parses the value of option `flag` as an integer in [`min`, `max`]. Returns nothing after
/// printing an error naming the flag and the range.
std::optional<int64_t> parseOptionInteger(const std::string& flag, const std::string& value,
                                          int64_t min = 0, int64_t max = INT64_MAX);
/// A positive, finite number of seconds (at most a year), or nothing.
std::optional<double> parsePositiveSeconds(const std::string& value);

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
