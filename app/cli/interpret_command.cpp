// `shardscope-cli interpret FILE [options]`: a stand-in for `stablehlo-translate --interpret`.
// Runs the entry function with StableHLO semantics (StableHLO's rule: `@main`, else the module's
// only function); the `check.*` ops inside compare values, `interpreter.run_parallel` runs
// per-device programs on the local backend, `interpreter.print` prints and `interpreter.probe`
// writes `.npy` files. Exit status 0 when everything ran and every check passed, 1 otherwise.
#include "app/cli/cli_support.h"
#include "app/cli/interpret_support.h"
#include "app/cli/program.h"
#include "app/cli/resource_limits.h"

#include "core/backends/local/local_communicator.h"
#include "core/exec/interpreter.h"
#include "core/io/mlir/mlir.h"
#include "core/ir/attribute.h"

#include <cstdio>

namespace shardscope::cli {

namespace {

// The default bound on the ops one device executes: an endless loop stops with a located error
// instead of running for hours (`--max-steps` raises it).
constexpr int64_t kDefaultMaxSteps = 10'000'000;

struct InterpretOptions {
  std::string file;
  int64_t maxSteps = kDefaultMaxSteps;
  ResourceLimits limits;
  std::string function; ///< empty: StableHLO's entry-function rule
  std::string args;     ///< `--args=[dense<...> : tensor<...>, ...]`
  bool argsGiven = false;
  std::string probeDir;
  bool printDense = false;
  bool split = false;
};

// Takes `--name=value` or `--name value` (one or two dashes) into `value`.
bool takeValue(const std::vector<std::string>& args, size_t& i, std::string_view name,
               std::string& value) {
  std::string_view a = args[i];
  if (a.starts_with("--"))
    a.remove_prefix(2);
  else if (a.starts_with("-"))
    a.remove_prefix(1);
  else
    return false;
  if (a.starts_with(name) && a.size() > name.size() && a[name.size()] == '=') {
    value = std::string(a.substr(name.size() + 1));
    return true;
  }
  if (a == name && i + 1 < args.size()) {
    value = args[++i];
    return true;
  }
  return false;
}

bool isFlag(std::string_view a, std::string_view name) {
  return a == std::string("--") + std::string(name) || a == std::string("-") + std::string(name);
}

bool parseInterpretArgs(const std::vector<std::string>& args, InterpretOptions& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string steps;
    if (std::optional<bool> ok = parseLimitOption(args, i, o.limits)) {
      if (!*ok)
        return false;
    } else if (takeValue(args, i, "max-steps", steps)) {
      std::optional<int64_t> n = parseOptionInteger("--max-steps", steps, 1);
      if (!n)
        return false;
      o.maxSteps = *n;
    } else if (isFlag(a, "interpret")) {
      continue; // accepted so that `stablehlo-translate --interpret FILE` maps onto this command
    } else if (isFlag(a, "interpreter-print-dense")) {
      o.printDense = true;
    } else if (isFlag(a, "split-input-file")) {
      o.split = true;
    } else if (takeValue(args, i, "function", o.function) ||
               takeValue(args, i, "probe-output-dir", o.probeDir)) {
      continue;
    } else if (takeValue(args, i, "args", o.args)) {
      o.argsGiven = true;
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

// StableHLO's `--args`: an array of dense elements attributes, one per argument.
std::optional<std::vector<exec::Tensor>> parseArgs(const InterpretOptions& o,
                                                   support::SourceManager& sources,
                                                   support::DiagnosticSink& sink) {
  std::vector<exec::Tensor> inputs;
  if (!o.argsGiven || o.args.empty())
    return inputs;
  const char* usage = ", i.e. --args=[dense<1> : tensor<2xi32>, ...]";
  uint32_t fileId = sources.addBuffer("<args>", o.args);
  support::CollectingSink quiet;
  ir::Attribute parsed = io::mlir::parseAttribute(o.args, fileId, quiet);
  const auto* array = parsed.as<ir::ArrayAttr>();
  if (!array) {
    // The reference's own wording, misspelling included: tests match it.
    sink.error({fileId, 1, 1, 0},
               std::string("expectected array attribute string for args") + usage);
    return std::nullopt;
  }
  for (const ir::Attribute& element : array->elements) {
    const auto* dense = element.as<ir::DenseElementsAttr>();
    std::optional<exec::Tensor> t = dense ? exec::Tensor::fromDense(*dense) : std::nullopt;
    if (!dense) {
      sink.error({fileId, 1, 1, 0},
                 std::string("expected dense elements attribute for args elements") + usage);
      return std::nullopt;
    }
    if (!t) {
      sink.error({fileId, 1, 1, 0}, "unsupported argument type " + dense->type.str());
      return std::nullopt;
    }
    inputs.push_back(std::move(*t));
  }
  return inputs;
}

// StableHLO's entry function: the one named by `--function` (default `main`); when none was
// named and there is no `main`, the module's only function.
const ir::Operation* entryFunction(const LoadedProgram& program, const InterpretOptions& o,
                                   support::DiagnosticSink& sink) {
  std::string name = o.function.empty() ? "main" : o.function;
  if (const ir::Operation* fn = program.module->lookupFunction(name))
    return fn;
  std::vector<ir::Operation*> functions = program.module->functions();
  if (o.function.empty() && functions.size() == 1)
    return functions.front();
  sink.error({program.fileId, 1, 1, 0}, "module must have entry func with name " + name);
  return nullptr;
}

// Runs one module (a whole file, or one `// -----` chunk of it).
bool interpretProgram(LoadedProgram& program, const InterpretOptions& o, std::string& out) {
  StderrSink printer(program.sources);
  support::ErrorTrackingSink sink(printer);
  std::optional<std::vector<exec::Tensor>> inputs = parseArgs(o, program.sources, sink);
  if (!inputs)
    return false;
  const ir::Operation* fn = entryFunction(program, o, sink);
  if (!fn)
    return false;
  // StableHLO's entry signature check: one input per argument, of the argument's type.
  std::span<const ir::Type> params = ir::func::type(*fn).elements();
  if (params.size() != inputs->size()) {
    sink.error(fn->loc(), "invalid number of arguments: entry function expected " +
                              std::to_string(params.size()) + " inputs, got " +
                              std::to_string(inputs->size()) + " (pass them with --args)");
    return false;
  }
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i] != (*inputs)[i].type()) {
      sink.error(fn->loc(), "invalid input argument type at index " + std::to_string(i) +
                                ": input type " + (*inputs)[i].type().str() +
                                " but entry function expected " + params[i].str());
      return false;
    }
  if (!checkTensorSizes(*program.module, o.limits.maxTensorBytes, sink))
    return false;
  exec::Interpreter interpreter(*program.module);
  interpreter.setCommunicatorFactory(backends::local::localCommunicatorFactory());
  interpreter.setStepLimit(o.maxSteps);
  // Nothing reads a value after its last use (checks, prints and probes are uses): free it then,
  // as `run` does, so a long chain of large tensors holds a few of them at a time.
  interpreter.setValueRetention(exec::ValueRetention::FreeAfterLastUse);
  InterpreterIo io(o.probeDir, program);
  interpreter.setHooks(io.hooks());
  std::optional<std::vector<exec::Tensor>> results =
      interpreter.run(ir::func::name(*fn), std::move(*inputs), sink);
  std::fputs(io.takePrinted().c_str(), stdout);
  if (!results || sink.hadError())
    return false;
  // Like stablehlo-translate --interpret, print the results of the entry function.
  for (const exec::Tensor& t : *results)
    out += (o.printDense ? denseLiteral(t) : stablehloTensorText(t)) + "\n";
  return true;
}

} // namespace

int runInterpret(const std::vector<std::string>& args) {
  InterpretOptions options;
  if (!parseInterpretArgs(args, options)) {
    std::fputs("usage: shardscope-cli interpret FILE [--function NAME] [--args=[dense<...> : "
               "tensor<...>, ...]] [--probe-output-dir=DIR] [--interpreter-print-dense] "
               "[--split-input-file] [--max-steps N] [--max-tensor-bytes N]\n",
               stderr);
    return 1;
  }
  std::vector<std::unique_ptr<LoadedProgram>> programs;
  if (!loadPrograms(options.file, options.split, programs))
    return 1;
  bool ok = true;
  for (size_t i = 0; i < programs.size(); ++i) {
    std::string out;
    if (programs[i] && !interpretProgram(*programs[i], options, out))
      ok = false;
    if (i)
      std::fputs("// -----\n", stdout);
    std::fputs(out.c_str(), stdout);
    std::fflush(stdout);
  }
  return ok ? 0 : 1;
}

} // namespace shardscope::cli
