// `shardscope-cli run FILE`: executes a program on every device of its mesh (the per-device
// program, lowered from the sharded one), optionally checking each step against the unsharded
// reference run, and writes the results as .npy files and the execution trace.
#include "app/cli/cli_support.h"
#include "app/cli/program.h"
#include "app/cli/resource_limits.h"
#include "app/cli/result_set.h"

#include "core/io/npy/npy.h"
#include "core/session/execution.h"
#include "core/support/atomic_file.h"
#include "core/support/parse_number.h"

#ifdef SHARDSCOPE_HAVE_MPI
#include "core/backends/mpi/mpi_coordinator.h"
#endif

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace shardscope::cli {

namespace {

struct RunOptions {
  std::string file;
  std::string function;
  std::string stage = "per-device";
  std::string backend = "local";
  std::string inputs = "small";
  std::string trace;
  std::string outputDir;
  std::string maxSteps;
  bool checkReference = false;
  ResourceLimits limits{kDefaultMaxTensorBytes, kDefaultMaxRunDevices};
  // --backend mpi
  std::string devicesPerRank = "0";
  std::string mpiTimeout;
  std::string crashRank = "-1", crashStep = "-1", failRank = "-1", failStep = "-1";
  std::string hangRank = "-1", hangStep = "-1";
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
    if (std::optional<bool> ok = parseLimitOption(args, i, o.limits)) {
      if (!*ok) {
        error = "invalid " + a.substr(0, a.find('='));
        return false;
      }
    } else if (value("--function", o.function) || value("--stage", o.stage) ||
        value("--backend", o.backend) || value("--inputs", o.inputs) ||
        value("--trace", o.trace) || value("--output-dir", o.outputDir) ||
        value("--max-steps", o.maxSteps) ||
        value("--devices-per-rank", o.devicesPerRank) || value("--mpi-timeout", o.mpiTimeout) ||
        value("--debug-crash-rank", o.crashRank) || value("--debug-crash-step", o.crashStep) ||
        value("--debug-fail-rank", o.failRank) || value("--debug-fail-step", o.failStep) ||
        value("--debug-hang-rank", o.hangRank) || value("--debug-hang-step", o.hangStep)) {
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

// Writes every result as one set (see result_set.h).
bool writeResults(const std::string& dir, const std::vector<exec::Tensor>& results,
                  std::string& error) {
  std::vector<io::npy::Array> arrays;
  for (const exec::Tensor& t : results)
    arrays.push_back({t.elementType(), t.shape(), {t.bytes().begin(), t.bytes().end()}});
  return writeResultSet(dir, arrays, error);
}

} // namespace

namespace {

// What the MPI backend adds to a run; inactive with --backend local.
struct MpiRun {
  bool active = false;
  bool driver = true;
  bool started = false; // every rank passed the start-up handshake
#ifdef SHARDSCOPE_HAVE_MPI
  backends::mpi::MpiRunOptions options;
  backends::mpi::MpiCoordinator* coordinator = nullptr;
#endif
};

int runRunBody(const RunOptions& o, MpiRun& mpi);

} // namespace

int runRun(const std::vector<std::string>& args) {
  RunOptions o;
  std::string error;
  if (!parseRunArgs(args, o, error))
    return fail(error + "\nusage: shardscope-cli run FILE [--function NAME] [--stage STAGE] "
                        "[--backend local|mpi] [--devices-per-rank K] [--inputs SPEC] "
                        "[--check-reference] [--trace OUT.json] [--output-dir DIR] "
                        "[--max-steps N] [--max-tensor-bytes N] [--max-devices N]");
  MpiRun mpi;
  if (o.backend == "local")
    return runRunBody(o, mpi);
#ifdef SHARDSCOPE_HAVE_MPI
  if (o.backend == "mpi") {
    // Every rank runs this command; rank 0 drives and prints, the others follow silently and
    // speak only when they fail.
    // Options are checked before MPI starts: every rank sees the same arguments and fails alike.
    std::optional<int64_t> devicesPerRank = parseOptionInteger("--devices-per-rank",
                                                               o.devicesPerRank);
    std::optional<int64_t> crashRank = parseOptionInteger("--debug-crash-rank", o.crashRank, -1,
                                                          INT32_MAX);
    std::optional<int64_t> crashStep = parseOptionInteger("--debug-crash-step", o.crashStep, -1);
    std::optional<int64_t> failRank = parseOptionInteger("--debug-fail-rank", o.failRank, -1,
                                                         INT32_MAX);
    std::optional<int64_t> failStep = parseOptionInteger("--debug-fail-step", o.failStep, -1);
    std::optional<int64_t> hangRank = parseOptionInteger("--debug-hang-rank", o.hangRank, -1,
                                                         INT32_MAX);
    std::optional<int64_t> hangStep = parseOptionInteger("--debug-hang-step", o.hangStep, -1);
    std::optional<double> timeout =
        o.mpiTimeout.empty() ? std::optional<double>(0) : parsePositiveSeconds(o.mpiTimeout);
    if (!timeout)
      return fail("--mpi-timeout '" + o.mpiTimeout + "': expected a positive number of seconds");
    if (!devicesPerRank || !crashRank || !crashStep || !failRank || !failStep || !hangRank ||
        !hangStep)
      return 1;
    backends::mpi::MpiWorld& world = backends::mpi::MpiWorld::init();
    mpi.active = true;
    mpi.driver = world.rank() == 0;
    mpi.options.devicesPerRank = *devicesPerRank;
    mpi.options.crashRank = static_cast<int>(*crashRank);
    mpi.options.crashStep = *crashStep;
    mpi.options.failRank = static_cast<int>(*failRank);
    mpi.options.failStep = *failStep;
    mpi.options.hangRank = static_cast<int>(*hangRank);
    mpi.options.hangStep = *hangStep;
    if (*timeout > 0)
      world.setTimeout(std::chrono::milliseconds(static_cast<int64_t>(*timeout * 1000)));
    if (!mpi.driver && !std::freopen("/dev/null", "w", stdout))
      world.fail("cannot silence standard output");
    int code = 1;
    try {
      code = runRunBody(o, mpi);
    } catch (const std::exception& e) {
      world.fail(std::string("unexpected exception: ") + e.what());
    }
    // A rank that stops before the handshake leaves the others waiting in it: end the job.
    if (code != 0 && !mpi.started && !backends::mpi::MpiCoordinator::failedTogether())
      world.fail("this rank stopped before the run started (see above)");
    world.finalize();
    return code;
  }
#endif
  if (o.backend == "mpi")
    return fail("this build has no mpi backend (MPI was not found when it was built)");
  return fail("unknown backend '" + o.backend + "' (local or mpi)");
}

namespace {

int runRunBody(const RunOptions& o, MpiRun& mpi) {
  std::string error;
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
      if (quiet)
        return;
      std::string text = d.loc.isValid() ? sources->format(d)
                                         : "shardscope-cli: error: " + d.message + "\n";
      std::fwrite(text.data(), 1, text.size(), stderr);
    }
    bool quiet = false;
  } sink;
  sink.sources = &fallback;
  support::ErrorTrackingSink tracking(sink);
  auto program = loadSessionProgram(o.file, fallback, tracking);
  if (!program) {
    if (!tracking.hadError())
      return fail("cannot load '" + o.file + "'");
    return 1;
  }
  sink.sources = &program->sources();
  if (!checkMeshDevices(program->asWritten(), o.limits.maxDevices, tracking) ||
      !checkTensorSizes(program->asWritten(), o.limits.maxTensorBytes, tracking))
    return 1;

  session::ExecutionOptions options;
  if (!o.maxSteps.empty()) {
    std::optional<int64_t> limit = support::parseInteger<int64_t>(o.maxSteps);
    if (!limit || *limit <= 0)
      return fail("--max-steps: expected a positive number, got '" + o.maxSteps + "'");
    options.stepLimit = *limit;
  }
  options.stage = *stage;
  options.function = o.function;
  options.checkReference = o.checkReference;
  options.trace = !o.trace.empty();
#ifdef SHARDSCOPE_HAVE_MPI
  if (mpi.active) {
    options.distributedDriver = mpi.driver;
    options.distributed = [&mpi](int64_t numDevices, const auto& fingerprint, std::string& error)
        -> std::unique_ptr<exec::SpmdCoordinator> {
      auto coordinator = backends::mpi::MpiCoordinator::create(
          backends::mpi::MpiWorld::init(), numDevices, mpi.options, fingerprint, error);
      mpi.coordinator = coordinator.get();
      mpi.started = coordinator != nullptr;
      return coordinator;
    };
  }
#endif
  auto execution = session::Execution::create(*program, options, tracking);
  if (!execution)
    return 1;
  // The program that runs (per device, or a gradient) may hold other tensors than the source.
  if (!checkTensorSizes(execution->module(), o.limits.maxTensorBytes, tracking) ||
      !execution->setInputs(*spec))
    return 1;

  std::string fn(ir::func::name(execution->function()));
  auto header = [&](const std::string& backend) {
    std::printf("@%s, %s stage, %lld device%s (%s)\n", fn.c_str(),
                std::string(session::stageName(*stage)).c_str(),
                static_cast<long long>(execution->numDevices()),
                execution->numDevices() == 1 ? "" : "s", backend.c_str());
    for (size_t i = 0; i < execution->inputs().size(); ++i)
      std::printf("  input %zu: %s\n", i, execution->inputs()[i].str(8).c_str());
  };
  if (!mpi.active)
    header("local backend");
  if (!execution->start())
    return 1;
#ifdef SHARDSCOPE_HAVE_MPI
  if (mpi.active) {
    // Followers only step and answer; the driver reports, as with the local backend.
    sink.quiet = !mpi.driver;
    if (!mpi.driver)
      return execution->follow(), 0; // the driver reports how the run ended
    const backends::mpi::DevicePlacement& placement = mpi.coordinator->placement();
    header("mpi backend: " + std::to_string(backends::mpi::MpiWorld::init().size()) +
           " ranks, " + std::to_string(placement.devicesPerRank) + " device" +
           (placement.devicesPerRank == 1 ? "" : "s") + " per rank");
    std::printf("device -> rank map:\n%s", mpi.coordinator->deviceMap().c_str());
  }
#endif
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

} // namespace

} // namespace shardscope::cli
