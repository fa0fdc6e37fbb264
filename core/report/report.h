#pragma once

// Exported reports of a program: one self-contained HTML page, the SVG or DOT graph of one stage,
// or JSON data following `resources/report.schema.json`. Output is deterministic (no timestamps,
// no absolute paths: files are named by their base name) so that golden tests compare bytes.

#include "core/session/program.h"
#include "core/support/diagnostic.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shardscope::report {

enum class Format { Html, Svg, Dot, Json };

/// `html`, `svg`, `dot`, `json`.
std::string_view formatName(Format format);
/// Parses a format name; nothing for an unknown one.
std::optional<Format> parseFormat(std::string_view name);
/// The format of an output path's extension (`.html`/`.htm`, `.svg`, `.dot`/`.gv`, `.json`).
std::optional<Format> formatFromPath(std::string_view path);

/// The version of the JSON schema written (`schemaVersion`), bumped on incompatible changes.
inline constexpr int kSchemaVersion = 1;

/// Runs `work` concurrently with the calling thread, on a thread the caller owns, and returns a
/// function that waits until `work` has finished. The report calls the returned function exactly
/// once, before it returns.
using TaskStarter = std::function<std::function<void()>(std::function<void()> work)>;

struct ReportOptions {
  /// The function shown; empty picks `main`, else the first function.
  std::string function;
  /// The stages shown (HTML, JSON); empty means all four. SVG and DOT show `graphStage`.
  std::vector<session::Stage> stages;
  /// The stage of the SVG/DOT graph (default: partitioned, where inserted collectives appear).
  session::Stage graphStage = session::Stage::Partitioned;
  /// Clusters nested deeper than this open collapsed (-1: the default, see `CollapseState`).
  int collapseDepth = -1;
  /// Compare two stages of the program ...
  std::optional<std::pair<session::Stage, session::Stage>> diffStages;
  /// ... or the same stage (`graphStage`, propagated when unset) of another program.
  session::Program* diffWith = nullptr;
  /// Run the per-device program on the local mesh with the reference check and report it.
  bool run = false;
  /// Rows of the HTML value table (JSON lists every value).
  size_t maxTableRows = 5000;
  /// The largest graph laid out; bigger graphs are collapsed further first.
  size_t maxLayoutNodes = 1500;
  /// Set from another thread to abandon the report.
  const std::atomic<bool>* cancel = nullptr;
  /// Where the report may run work concurrently: with it, a report of several stages derives
  /// each stage while it collects the ones already derived (one task). Empty, the report does
  /// all its work on the calling thread. The output is the same either way; only the time differs.
  TaskStarter startTask;
};

/// Renders the report of `program` in `format`. Returns nothing after reporting to `sink` (a
/// missing function, a stage that fails, a cancelled request). Problems of the program itself
/// (analysis diagnostics, failing stages when several are shown) go into the report instead.
std::optional<std::string> renderReport(session::Program& program, const ReportOptions& options,
                                        Format format, support::DiagnosticSink& sink);

} // namespace shardscope::report
