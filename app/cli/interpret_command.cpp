// `shardscope-cli interpret FILE [--function NAME]`: a stand-in for `stablehlo-translate
// --interpret`. Runs `@main` (which takes no arguments) with StableHLO semantics; the `check.*`
// ops inside compare values and `interpreter.run_parallel` runs per-device programs on the local
// backend. Exit status 0 when everything ran and every check passed, 1 otherwise.
#include "app/cli/cli_support.h"
#include "app/cli/program.h"
#include "app/cli/resource_limits.h"

#include "core/backends/local/local_communicator.h"
#include "core/exec/interpreter.h"
#include "core/ir/attribute.h"

#include <cstdio>

namespace shardscope::cli {

namespace {

// The default bound on the ops one device executes: an endless loop stops with a located error
// instead of running for hours (`--max-steps` raises it).
constexpr int64_t kDefaultMaxSteps = 10'000'000;

struct InterpretOptions {
  std::string file;
  std::string function = "main";
  int64_t maxSteps = kDefaultMaxSteps;
  ResourceLimits limits;
};

bool parseInterpretArgs(const std::vector<std::string>& args, InterpretOptions& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (std::optional<bool> ok = parseLimitOption(args, i, o.limits)) {
      if (!*ok)
        return false;
    } else if (a == "--interpret" || a == "-interpret") {
      continue; // accepted so that `stablehlo-translate --interpret FILE` maps onto this command
    } else if (a.starts_with("--function=")) {
      o.function = a.substr(11);
    } else if (a == "--function" && i + 1 < args.size()) {
      o.function = args[++i];
    } else if (a.starts_with("--max-steps=") || (a == "--max-steps" && i + 1 < args.size())) {
      std::optional<int64_t> n = parseOptionInteger(
          "--max-steps", a == "--max-steps" ? args[++i] : a.substr(12), 1);
      if (!n)
        return false;
      o.maxSteps = *n;
    } else if (o.file.empty() && (a == "-" || !a.starts_with("-"))) {
      o.file = a;
    } else {
      return false;
    }
  }
  if (o.function.starts_with("@"))
    o.function.erase(0, 1);
  return !o.file.empty();
}

} // namespace

int runInterpret(const std::vector<std::string>& args) {
  InterpretOptions options;
  if (!parseInterpretArgs(args, options)) {
    std::fputs("usage: shardscope-cli interpret FILE [--function NAME] [--max-steps N] "
             "[--max-tensor-bytes N]\n", stderr);
    return 1;
  }
  std::unique_ptr<LoadedProgram> program = loadProgram(options.file);
  if (!program)
    return 1;
  StderrSink printer(program->sources);
  support::ErrorTrackingSink sink(printer);
  const ir::Operation* fn = program->module->lookupFunction(options.function);
  if (!fn) {
    sink.error({program->fileId, 1, 1, 0},
               "no function named \"" + options.function + "\" to interpret");
    return 1;
  }
  if (!ir::func::type(*fn).elements().empty()) {
    sink.error(fn->loc(), "function \"" + options.function + "\" takes arguments; `interpret` "
                          "runs a function without arguments");
    return 1;
  }
  if (!checkTensorSizes(*program->module, options.limits.maxTensorBytes, sink))
    return 1;
  exec::Interpreter interpreter(*program->module);
  interpreter.setCommunicatorFactory(backends::local::localCommunicatorFactory());
  interpreter.setStepLimit(options.maxSteps);
  std::optional<std::vector<exec::Tensor>> results =
      interpreter.run(options.function, {}, sink);
  if (!results || sink.hadError())
    return 1;
  // Like stablehlo-translate --interpret, print the results of the entry function.
  for (const exec::Tensor& t : *results)
    std::printf("%s\n", t.str(/*maxElements=*/64).c_str());
  return 0;
}

} // namespace shardscope::cli
