// `shardscope-cli explain FILE --value NAME`: why a value ends up sharded the way it is after
// propagation — the annotations its sharding came from and the chain of steps that carried it.
#include "app/cli/cli_support.h"
#include "app/cli/program.h"

#include "core/io/mlir/mlir.h"
#include "core/sharding/axis_refs.h"
#include "core/sharding/notation.h"
#include "core/sharding/value_sharding.h"

#include <cstdio>

namespace shardscope::cli {

namespace {

struct ExplainArgs {
  std::string file;
  std::string value;
  std::string function;
  session::ExplainOptions explain;
};

bool parseExplainArgs(const std::vector<std::string>& args, ExplainArgs& o) {
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
      if (!value(level))
        return false;
      std::optional<propagation::PropagationLevel> parsed = session::parsePropagationStrategy(level);
      if (!parsed)
        return false;
      o.explain.level = *parsed;
    } else if (o.file.empty() && (a == "-" || !a.starts_with("-"))) {
      o.file = a;
    } else {
      return false;
    }
  }
  return !o.file.empty() && !o.value.empty();
}

void printChain(const session::Program::ShardingExplanation& why) {
  std::printf("\nit comes from %zu annotation%s:\n", why.seeds.size(),
              why.seeds.size() == 1 ? "" : "s");
  for (const auto& seed : why.seeds)
    std::printf("  %-10s %s\n", seed.tensor.c_str(), seed.annotation.c_str());
  std::printf("\nthrough %zu propagation step%s:\n", why.steps.size(),
              why.steps.size() == 1 ? "" : "s");
  int n = 0;
  for (const auto& step : why.steps) {
    std::string where = step.line ? "  (line " + std::to_string(step.line) + ")" : "";
    std::printf("  %2d. %s%s\n", ++n, step.text.c_str(), where.c_str());
  }
}

} // namespace

int runExplain(const std::vector<std::string>& args) {
  ExplainArgs options;
  if (!parseExplainArgs(args, options)) {
    std::fprintf(stderr, "shardscope-cli: error: usage: shardscope-cli explain FILE --value NAME "
                         "[--function NAME] [--strategy basic|aggressive|op-priority|"
                         "user-priority]\n");
    return 1;
  }
  std::unique_ptr<LoadedProgram> program = loadProgram(options.file);
  if (!program)
    return 1;
  std::vector<NamedValue> matches = findValuesByName(*program, options.value, options.function);
  const ir::Value* value = matches.size() == 1 ? matches[0].value : nullptr;
  const ir::Operation* function = matches.size() == 1 ? matches[0].function : nullptr;
  if (!value) {
    std::fprintf(stderr, "shardscope-cli: error: '%s' does not name exactly one value (see "
                         "'shardscope-cli check' for the names)\n",
                 options.value.c_str());
    return 1;
  }
  // The chain names values as `check` lists them.
  options.explain.names = session::ExplainOptions::Names::Printed;
  StderrSink sink(program->sources);
  support::ErrorTrackingSink tracking(sink);
  std::optional<session::Program::ShardingExplanation> why =
      program->session->explainSharding(*value, options.explain, &tracking);
  if (!why || tracking.hadError())
    return 1;
  std::printf("%s : %s  in @%s\n", displayName(*program, value).c_str(),
              value->type().str().c_str(), std::string(ir::func::name(*function)).c_str());
  std::printf("  as written        %s\n", why->asWritten.c_str());
  std::printf("  after propagation %s\n", why->propagated.c_str());
  if (why->propagatedSharding && value->type().isTensor())
    std::printf("                    %s  %s\n",
                sharding::jaxTypedNotation(*why->propagatedSharding, value->type()).c_str(),
                sharding::partitionSpecNotation(*why->propagatedSharding).c_str());
  if (!why->changed) {
    std::printf("\n%s\n", sharding::valueSharding(*value)
                               ? "propagation did not change it: this is its own annotation"
                               : "propagation gave it no sharding: nothing reached it");
    return 0;
  }
  printChain(*why);
  return 0;
}

} // namespace shardscope::cli
