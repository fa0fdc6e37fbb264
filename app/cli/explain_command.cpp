// `shardscope-cli explain FILE --value NAME`: why a value ends up sharded the way it is after
// propagation — the annotations its sharding came from and the chain of steps that carried it.
#include "app/cli/cli_support.h"
#include "app/cli/program.h"

#include "core/io/mlir/mlir.h"
#include "core/propagation/origin.h"
#include "core/propagation/propagate_basic.h"
#include "core/sharding/axis_refs.h"
#include "core/sharding/notation.h"
#include "core/sharding/value_sharding.h"

#include <cstdio>

namespace shardscope::cli {

namespace {

struct ExplainOptions {
  std::string file;
  std::string value;
  std::string function;
  propagation::PropagationLevel level = propagation::PropagationLevel::UserPriority;
};

bool parseLevel(const std::string& name, propagation::PropagationLevel& level) {
  using propagation::PropagationLevel;
  if (name == "basic")
    level = PropagationLevel::Basic;
  else if (name == "aggressive")
    level = PropagationLevel::Aggressive;
  else if (name == "op-priority")
    level = PropagationLevel::OpPriority;
  else if (name == "user-priority")
    level = PropagationLevel::UserPriority;
  else
    return false;
  return true;
}

bool parseExplainArgs(const std::vector<std::string>& args, ExplainOptions& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    std::string key = a.substr(0, a.find('='));
    std::string inlineValue = a.find('=') == std::string::npos ? "" : a.substr(a.find('=') + 1);
    auto value = [&](std::string& out) {
      if (!inlineValue.empty()) {
        out = inlineValue;
        return true;
      }
      if (i + 1 >= args.size())
        return false;
      out = args[++i];
      return true;
    };
    if (key == "--value") {
      if (!value(o.value))
        return false;
    } else if (key == "--function") {
      if (!value(o.function))
        return false;
    } else if (key == "--strategy") {
      std::string level;
      if (!value(level) || !parseLevel(level, o.level))
        return false;
    } else if (o.file.empty() && (a == "-" || !a.starts_with("-"))) {
      o.file = a;
    } else {
      return false;
    }
  }
  return !o.file.empty() && !o.value.empty();
}

std::string tensorName(const LoadedProgram& program, const propagation::TraceTensor& t) {
  return t.value ? displayName(program, t.value) : propagation::funcResultName(t);
}

std::string shardingText(const std::optional<ir::TensorSharding>& s) {
  return s ? sharding::shardyNotation(*s) : std::string("(no sharding)");
}

void printChain(const LoadedProgram& program, const propagation::PropagationTrace& trace,
                const propagation::Origin& origin) {
  const propagation::OriginText text = propagation::describeOrigin(
      trace, origin, [&](const propagation::TraceTensor& t) { return tensorName(program, t); });
  std::printf("\nit comes from %zu annotation%s:\n", text.seeds.size(),
              text.seeds.size() == 1 ? "" : "s");
  for (const propagation::OriginText::Seed& seed : text.seeds)
    std::printf("  %-10s %s\n", seed.tensor.c_str(), seed.annotation.c_str());
  std::printf("\nthrough %zu propagation step%s:\n", text.steps.size(),
              text.steps.size() == 1 ? "" : "s");
  int n = 0;
  for (const propagation::OriginText::Step& step : text.steps) {
    std::string where = step.line ? "  (line " + std::to_string(step.line) + ")" : "";
    std::printf("  %2d. %s%s\n", ++n, step.text.c_str(), where.c_str());
  }
}

} // namespace

int runExplain(const std::vector<std::string>& args) {
  ExplainOptions options;
  if (!parseExplainArgs(args, options)) {
    std::fprintf(stderr, "shardscope-cli: error: usage: shardscope-cli explain FILE --value NAME "
                         "[--function NAME] [--strategy basic|aggressive|op-priority|"
                         "user-priority]\n");
    return 1;
  }
  std::unique_ptr<LoadedProgram> program = loadProgram(options.file);
  if (!program)
    return 1;
  // Propagation with a trace, under the strategy asked for, runs on a copy of the program as
  // written (the session's stages use user-priority propagation without one).
  program->owned = program->module->clone();
  program->module = program->owned.get();
  program->names = io::mlir::printedValueNames(*program->module);
  std::vector<NamedValue> matches = findValuesByName(*program, options.value, options.function);
  const ir::Value* value = matches.size() == 1 ? matches[0].value : nullptr;
  const ir::Operation* function = matches.size() == 1 ? matches[0].function : nullptr;
  if (!value) {
    std::fprintf(stderr, "shardscope-cli: error: '%s' does not name exactly one value (see "
                         "'shardscope-cli check' for the names)\n",
                 options.value.c_str());
    return 1;
  }
  std::optional<ir::TensorSharding> before = sharding::valueSharding(*value);
  propagation::PropagationOptions propagationOptions;
  propagationOptions.level = options.level;
  propagation::PropagationTrace trace;
  StderrSink sink(program->sources);
  support::ErrorTrackingSink tracking(sink);
  if (!propagation::propagate(*program->owned, propagationOptions, tracking, &trace) ||
      tracking.hadError())
    return 1;
  std::optional<ir::TensorSharding> after = sharding::valueSharding(*value);
  std::printf("%s : %s  in @%s\n", displayName(*program, value).c_str(),
              value->type().str().c_str(), std::string(ir::func::name(*function)).c_str());
  std::printf("  as written        %s\n", shardingText(before).c_str());
  std::printf("  after propagation %s\n", shardingText(after).c_str());
  if (after && value->type().isTensor())
    std::printf("                    %s  %s\n", sharding::jaxTypedNotation(*after, value->type()).c_str(),
                sharding::partitionSpecNotation(*after).c_str());
  propagation::TraceTensor tensor = propagation::TraceTensor::of(value);
  if (!trace.changed(tensor)) {
    std::printf("\n%s\n", before ? "propagation did not change it: this is its own annotation"
                                 : "propagation gave it no sharding: nothing reached it");
    return 0;
  }
  printChain(*program, trace, trace.originOf(tensor));
  return 0;
}

} // namespace shardscope::cli
