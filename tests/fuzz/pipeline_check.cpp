#include "tests/fuzz/pipeline_check.h"

#include "app/cli/resource_limits.h"
#include "core/analysis/sharded_reductions.h"
#include "core/session/execution.h"
#include "core/session/program.h"
#include "core/support/diagnostic.h"

#include <algorithm>

namespace shardscope::fuzz {

namespace {

// The program's file id in its own source manager: the first buffer added.
constexpr uint32_t kProgramFileId = 1;

// Every error must point into the program text; `what` names the step for the message.
std::string unlocatedError(const support::CollectingSink& sink, std::string_view text,
                           std::string_view what) {
  uint32_t lines = 1 + static_cast<uint32_t>(std::count(text.begin(), text.end(), '\n'));
  for (const support::Diagnostic& d : sink.diagnostics()) {
    if (d.severity != support::Severity::Error)
      continue;
    if (d.loc.fileId != kProgramFileId || d.loc.line == 0 || d.loc.line > lines ||
        d.loc.column == 0)
      return std::string(what) + ": error without a location in the input (file " +
             std::to_string(d.loc.fileId) + ", line " + std::to_string(d.loc.line) + "): " +
             d.message;
  }
  return {};
}

// A failed step must say why, at a place in the input.
std::string failedStep(const support::CollectingSink& sink, std::string_view text,
                       std::string_view what) {
  if (!sink.hasErrors())
    return std::string(what) + " failed without reporting an error";
  return unlocatedError(sink, text, what);
}

bool hasManualComputation(const ir::Module& module) {
  bool found = false;
  module.op().walk(
      [&](const ir::Operation& op) { found = found || op.is("sdy.manual_computation"); });
  return found;
}

// The run's reference check (the one `run --check-reference` prints) found a value that differs
// from the unsharded run: the pipeline broke the program's meaning. Devices of a manual
// computation that disagree on a block its out_shardings call replicated are the program's own
// doing (JAX's check_rep=False), not the pipeline's, and are no finding.
// A reduction over a sharded dimension whose init is not its body's identity, or whose body an
// all-reduce cannot apply, gives a result that depends on the sharding (the engine warns at the
// reduce): what follows from it diverging is the program's doing too.
std::string divergenceFinding(const session::Execution& execution, const ir::Module& written,
                              const ir::Module& partitioned) {
  bool manual = hasManualComputation(written);
  if (!analysis::shardedReductionFindings(partitioned).empty())
    return {};
  for (const session::Divergence& d : execution.divergences()) {
    if (d.kind == "replicas" && manual)
      continue;
    support::SourceLocation loc = d.op->loc();
    return "the sharded run diverges from the reference run at " + std::to_string(loc.line) + ":" +
           std::to_string(loc.column) + " ('" + std::string(d.op->name()) + "' result " +
           std::to_string(d.result) + ", " + d.kind + "): " + d.message;
  }
  return {};
}

} // namespace

std::string checkPipeline(std::string_view text, const PipelineLimits& limits) {
  support::CollectingSink sink;
  std::unique_ptr<session::Program> program =
      session::Program::fromText("input.mlir", std::string(text), sink);
  if (!program)
    return failedStep(sink, text, "load");
  if (std::string failure = unlocatedError(sink, text, "load"); !failure.empty())
    return failure;
  // Beyond the limits is an error by design, located by the CLI's checks.
  if (!cli::checkMeshDevices(program->asWritten(), limits.maxDevices, sink) ||
      !cli::checkTensorSizes(program->asWritten(), limits.maxTensorBytes, sink))
    return failedStep(sink, text, "resource limits");

  for (session::Stage stage : session::kStages) {
    const ir::Module* module = program->stage(stage, sink);
    std::string what = "stage " + std::string(session::stageName(stage));
    if (!module)
      return failedStep(sink, text, what);
    if (std::string failure = unlocatedError(sink, text, what); !failure.empty())
      return failure;
    if (!cli::checkTensorSizes(*module, limits.maxTensorBytes, sink))
      return failedStep(sink, text, what + " (limits)");
  }

  session::ExecutionOptions options;
  // Which function to run is the user's choice, not something the input can get wrong: `main`,
  // else the first function (the CLI asks for --function when there are several).
  const ir::Module& written = program->asWritten();
  if (!written.lookupFunction("main") && !written.functions().empty())
    options.function = std::string(ir::func::name(*written.functions().front()));
  options.stage = session::Stage::PerDevice;
  options.checkReference = true;
  options.stepLimit = limits.maxSteps;
  std::unique_ptr<session::Execution> execution =
      session::Execution::create(*program, options, sink);
  if (!execution)
    return failedStep(sink, text, "execution setup");
  if (!cli::checkTensorSizes(execution->module(), limits.maxTensorBytes, sink))
    return failedStep(sink, text, "execution (limits)");
  std::string error;
  std::optional<session::InputSpec> inputs = session::parseInputSpec("small", error);
  if (!inputs)
    return "the input spec 'small' does not parse: " + error;
  if (!execution->setInputs(*inputs))
    return failedStep(sink, text, "inputs");
  if (!execution->start())
    return failedStep(sink, text, "start");
  session::StopReason reason = execution->runToEnd();
  if (reason == session::StopReason::Failed)
    return failedStep(sink, text, "run");
  if (reason != session::StopReason::Finished)
    return "run stopped with '" + std::string(session::stopReasonName(reason)) +
           "' instead of finishing or failing";
  if (!execution->globalResults(error))
    return "the finished run has no global results: " + error;
  if (std::string failure = unlocatedError(sink, text, "run"); !failure.empty())
    return failure;
  const ir::Module* partitioned = program->stage(session::Stage::Partitioned, sink);
  if (!partitioned)
    return failedStep(sink, text, "stage partitioned");
  return divergenceFinding(*execution, written, *partitioned);
}

} // namespace shardscope::fuzz
