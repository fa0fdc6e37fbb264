// `shardscope-cli run FILE`: executes a program on every device of its mesh (the per-device
// program, lowered from the sharded one), optionally checking each step against the unsharded
// reference run, and writes the results as .npy files and the execution trace.
#include "app/cli/cli_support.h"

#include "core/io/npy/npy.h"
#include "core/session/execution.h"
#include "core/support/atomic_file.h"

#include <cstdio>
#include <filesystem>

namespace shardscope::cli {

namespace {

struct RunOptions {
  std::string file;
  std::string function;
  std::string stage = "per-device";
  std::string backend = "local";
  std::string inputs = "iota";
  std::string trace;
  std::string outputDir;
  bool checkReference = false;
};

bool parseRunArgs(const std::vector<std::string>& args, RunOptions& o, std::string& error) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string_view flag, std::string& out) {
      if (a == flag) {
        if (i + 1 >= args.size()) {
          error = std::string(flag) + " needs a value";
          return true;
        }
        out = args[++i];
        return true;
      }
      if (a.starts_with(std::string(flag) + "=")) {
        out = a.substr(flag.size() + 1);
        return true;
      }
      return false;
    };
    if (value("--function", o.function) || value("--stage", o.stage) ||
        value("--backend", o.backend) || value("--inputs", o.inputs) ||
        value("--trace", o.trace) || value("--output-dir", o.outputDir)) {
      if (!error.empty())
        return false;
    } else if (a == "--check-reference") {
      o.checkReference = true;
    } else if (o.file.empty() && !a.starts_with("-")) {
      o.file = a;
    } else {
      error = "unexpected argument '" + a + "'";
      return false;
    }
  }
  if (o.file.empty())
    error = "missing FILE";
  return error.empty();
}

int fail(const std::string& message) {
  std::fprintf(stderr, "shardscope-cli: error: %s\n", message.c_str());
  return 1;
}

// Writes every result, or none: a failure removes the files already written.
bool writeResults(const std::string& dir, const std::vector<exec::Tensor>& results,
                  std::string& error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    error = "cannot create '" + dir + "': " + ec.message();
    return false;
  }
  std::vector<std::string> written;
  for (size_t i = 0; i < results.size(); ++i) {
    const exec::Tensor& t = results[i];
    io::npy::Array array{t.elementType(), t.shape(), {t.bytes().begin(), t.bytes().end()}};
    std::string path = (std::filesystem::path(dir) / ("result_" + std::to_string(i) + ".npy"))
                           .string();
    if (!io::npy::write(path, array, error)) {
      for (const std::string& done : written)
        std::filesystem::remove(done, ec);
      return false;
    }
    written.push_back(path);
  }
  return true;
}

} // namespace

int runRun(const std::vector<std::string>& args) {
  RunOptions o;
  std::string error;
  if (!parseRunArgs(args, o, error))
    return fail(error + "\nusage: shardscope-cli run FILE [--function NAME] [--stage STAGE] "
                        "[--backend local] [--inputs SPEC] [--check-reference] [--trace OUT.json] "
                        "[--output-dir DIR]");
  if (o.backend != "local")
    return fail("unknown backend '" + o.backend + "' (this build runs: local)");
  std::optional<session::Stage> stage = session::parseStage(o.stage);
  if (!stage)
    return fail("unknown stage '" + o.stage +
                "' (as-written, propagated, partitioned or per-device)");
  std::optional<session::InputSpec> spec = session::parseInputSpec(o.inputs, error);
  if (!spec)
    return fail("--inputs: " + error);

  support::SourceManager fallback;
  struct Sink final : support::DiagnosticSink {
    const support::SourceManager* sources = nullptr;
    void report(support::Diagnostic d) override {
      std::string text = d.loc.isValid() ? sources->format(d)
                                         : "shardscope-cli: error: " + d.message + "\n";
      std::fwrite(text.data(), 1, text.size(), stderr);
    }
  } sink;
  sink.sources = &fallback;
  support::ErrorTrackingSink tracking(sink);
  auto program = session::Program::load(o.file, tracking);
  if (!program) {
    if (!tracking.hadError())
      return fail("cannot load '" + o.file + "'");
    return 1;
  }
  sink.sources = &program->sources();

  session::ExecutionOptions options;
  options.stage = *stage;
  options.function = o.function;
  options.checkReference = o.checkReference;
  options.trace = !o.trace.empty();
  auto execution = session::Execution::create(*program, options, tracking);
  if (!execution || !execution->setInputs(*spec))
    return 1;

  std::string fn(ir::func::name(execution->function()));
  std::printf("@%s, %s stage, %lld device%s (local backend)\n", fn.c_str(),
              std::string(session::stageName(*stage)).c_str(),
              static_cast<long long>(execution->numDevices()),
              execution->numDevices() == 1 ? "" : "s");
  for (size_t i = 0; i < execution->inputs().size(); ++i)
    std::printf("  input %zu: %s\n", i, execution->inputs()[i].str(8).c_str());
  if (!execution->start())
    return 1;
  session::StopReason reason = execution->runToEnd();
  if (reason != session::StopReason::Finished) {
    std::printf("stopped after %lld steps: %s\n", static_cast<long long>(execution->steps()),
                std::string(session::stopReasonName(reason)).c_str());
    return 1;
  }
  std::printf("finished after %lld steps\n", static_cast<long long>(execution->steps()));
  std::optional<std::vector<exec::Tensor>> results = execution->globalResults(error);
  if (!results)
    return fail(error);
  for (size_t i = 0; i < results->size(); ++i)
    std::printf("  result %zu: %s\n", i, (*results)[i].str(8).c_str());

  bool diverged = false;
  if (o.checkReference) {
    std::printf("reference: %s\n", execution->referenceSummary().c_str());
    for (const session::Divergence& d : execution->divergences()) {
      diverged = true;
      support::SourceLocation loc = d.op->loc();
      std::string devices;
      for (int64_t device : d.devices)
        devices += (devices.empty() ? "" : ", ") + std::to_string(device);
      std::printf("  first divergence: %s:%u:%u '%s' result %u (%s): %s%s\n",
                  program->sources().name(loc.fileId).c_str(), loc.line, loc.column,
                  std::string(d.op->name()).c_str(), d.result, d.kind.c_str(), d.message.c_str(),
                  devices.empty() ? "" : (" on devices " + devices).c_str());
      break;
    }
  }
  if (!o.outputDir.empty() && !writeResults(o.outputDir, *results, error))
    return fail(error);
  if (!o.trace.empty()) {
    std::string trace = execution->chromeTrace();
    if (!support::writeFileAtomically(o.trace, trace, error))
      return fail(error);
  }
  return diverged ? 1 : 0;
}

} // namespace shardscope::cli
