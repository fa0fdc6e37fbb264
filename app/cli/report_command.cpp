// `shardscope-cli report FILE -o OUT`: an HTML, SVG, DOT or JSON report of a program, written
// atomically (a failed or interrupted run leaves no partial file).
#include "app/cli/cli_support.h"
#include "app/cli/program.h"
#include "app/cli/resource_limits.h"

#include "core/report/report.h"
#include "core/support/atomic_file.h"
#include "core/support/parse_number.h"

#include <climits>
#include <cstdio>
#include <functional>
#include <memory>
#include <thread>
#include <utility>

namespace shardscope::cli {

namespace {

constexpr const char* kReportUsage =
    "usage: shardscope-cli report FILE -o OUT [--format html|svg|dot|json] [--stage STAGE]\n"
    "                             [--function NAME] [--collapse-depth N]\n"
    "                             [--diff STAGE_A STAGE_B | --diff-with OTHER_FILE] [--run]";

struct ReportArgs {
  std::string file;
  std::string output;
  std::string format;
  std::string stage;
  std::string diffWith;
  std::vector<std::string> diff;
  report::ReportOptions options;
  ResourceLimits limits;
};

int fail(const std::string& message) {
  std::fprintf(stderr, "shardscope-cli: error: %s\n", message.c_str());
  return 1;
}

bool parseReportArgs(const std::vector<std::string>& args, ReportArgs& r, std::string& error) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto next = [&](std::string& out) {
      if (i + 1 >= args.size()) {
        error = a + " needs a value";
        return false;
      }
      out = args[++i];
      return true;
    };
    std::string value;
    if (a == "-o" || a == "--output") {
      if (!next(r.output))
        return false;
    } else if (a == "--format") {
      if (!next(r.format))
        return false;
    } else if (a == "--stage") {
      if (!next(r.stage))
        return false;
    } else if (a == "--function") {
      if (!next(r.options.function))
        return false;
    } else if (a == "--collapse-depth") {
      if (!next(value))
        return false;
      std::optional<int> depth = support::parseInteger<int>(value);
      if (!depth || *depth < 0) {
        error = "--collapse-depth needs a number from 0 to " + std::to_string(INT_MAX) +
                ", got '" + value + "'";
        return false;
      }
      r.options.collapseDepth = *depth;
    } else if (a == "--diff") {
      std::string second;
      if (!next(value) || !next(second))
        return false;
      r.diff = {value, second};
    } else if (a == "--diff-with") {
      if (!next(r.diffWith))
        return false;
    } else if (std::optional<bool> ok = parseLimitOption(args, i, r.limits)) {
      if (!*ok) {
        error = "invalid " + a.substr(0, a.find('='));
        return false;
      }
    } else if (a == "--run") {
      r.options.run = true;
    } else if (r.file.empty() && !a.starts_with("-")) {
      r.file = a;
    } else {
      error = "unexpected argument '" + a + "'";
      return false;
    }
  }
  if (r.file.empty())
    error = "missing FILE";
  else if (r.output.empty())
    error = "missing -o OUT";
  return error.empty();
}

std::optional<session::Stage> stageArg(const std::string& name, std::string& error) {
  std::optional<session::Stage> stage = session::parseStage(name);
  if (!stage)
    error = "unknown stage '" + name + "' (as-written, propagated, partitioned or per-device)";
  return stage;
}

// Prints diagnostics with caret context once the program's sources are known.
struct Sink final : support::DiagnosticSink {
  const support::SourceManager* sources = nullptr;
  /// Holds the program's text while it loads, so that load diagnostics are located too.
  support::SourceManager loadSources;
  void report(support::Diagnostic d) override {
    std::string text = d.loc.isValid() && sources ? sources->format(d)
                                                  : "shardscope-cli: error: " + d.message + "\n";
    std::fwrite(text.data(), 1, text.size(), stderr);
  }
};

std::unique_ptr<session::Program> load(const std::string& path, Sink& sink) {
  support::ErrorTrackingSink tracking(sink);
  sink.sources = &sink.loadSources;
  auto program = loadSessionProgram(path, sink.loadSources, tracking);
  if (!program && !tracking.hadError())
    fail("cannot load '" + path + "'");
  return program;
}

} // namespace

int runReport(const std::vector<std::string>& args) {
  ReportArgs r;
  std::string error;
  if (!parseReportArgs(args, r, error))
    return fail(error + "\n" + kReportUsage);
  std::optional<report::Format> format =
      r.format.empty() ? report::formatFromPath(r.output) : report::parseFormat(r.format);
  if (!format)
    return fail(r.format.empty() ? "cannot tell the format from '" + r.output +
                                       "': use --format html|svg|dot|json"
                                 : "unknown format '" + r.format + "' (html, svg, dot or json)");
  if (!r.stage.empty()) {
    std::optional<session::Stage> stage = stageArg(r.stage, error);
    if (!stage)
      return fail(error);
    r.options.graphStage = *stage;
    r.options.stages = {*stage};
  }
  if (!r.diff.empty()) {
    std::optional<session::Stage> a = stageArg(r.diff[0], error), b = stageArg(r.diff[1], error);
    if (!a || !b)
      return fail(error);
    r.options.diffStages = std::make_pair(*a, *b);
  }
  if (!r.diff.empty() && !r.diffWith.empty())
    return fail("--diff and --diff-with cannot be combined");

  Sink sink;
  auto program = load(r.file, sink);
  if (!program)
    return 1;
  sink.sources = &program->sources();
  // The report lays out every device of every mesh (the mesh view, block maps).
  if (!checkMeshDevices(program->asWritten(), r.limits.maxDevices, sink))
    return 1;
  std::unique_ptr<session::Program> other;
  if (!r.diffWith.empty()) {
    Sink otherSink;
    other = load(r.diffWith, otherSink);
    if (!other)
      return 1;
    r.options.diffWith = other.get();
    if (r.stage.empty())
      r.options.graphStage = session::Stage::Propagated;
  }
  // The CLI owns the report's concurrency: one thread derives the stages while the report
  // collects the ones already derived.
  r.options.startTask = [](std::function<void()> work) -> std::function<void()> {
    auto thread = std::make_shared<std::thread>(std::move(work));
    return [thread] { thread->join(); };
  };
  std::optional<std::string> text = report::renderReport(*program, r.options, *format, sink);
  // The process ends right after the report: freeing the program and its four stage modules (a
  // few million small objects for a 100k-op program) only costs time, so they are left to the OS.
  // Leak checkers (sanitizer builds) still see everything freed.
  auto release = [&] {
    if constexpr (!kLeakCheck) {
      (void)program.release();
      (void)other.release();
    }
  };
  if (!text) {
    release();
    return 1;
  }
  release();
  if (r.output == "-")
    return writeStdout(*text) ? 0 : 1;
  if (!support::writeFileAtomically(r.output, *text, error))
    return fail(error);
  return 0;
}

} // namespace shardscope::cli
