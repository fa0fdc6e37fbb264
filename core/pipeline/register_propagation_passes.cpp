// Registers sharding propagation (core/propagation) under `sdy_opt`'s pass names.
#include "core/pipeline/pass_manager.h"
#include "core/pipeline/passes.h"
#include "core/propagation/export_call_graph.h"
#include "core/propagation/import_flatten_call_graph.h"
#include "core/propagation/import_pipeline.h"
#include "core/propagation/propagate_basic.h"

namespace shardscope::pipeline {

namespace {

using propagation::PropagationLevel;
using propagation::PropagationStrategy;

// Options every propagation pass accepts (the debugging ones are accepted and ignored).
const std::vector<std::string> kBasicOptions = {
    "keep-sharding-rules", "conservative-propagation", "module-dump-directory",
    "debug-sharding-origins", "debug-propagation-edge-sharding"};

std::vector<std::string> withOptions(std::vector<std::string> extra) {
  std::vector<std::string> all = kBasicOptions;
  all.insert(all.end(), extra.begin(), extra.end());
  return all;
}

PropagationStrategy parseStrategy(const std::optional<std::string>& text) {
  if (text == "basic")
    return PropagationStrategy::Basic;
  if (text == "basic-then-aggressive")
    return PropagationStrategy::BasicThenAggressive;
  return PropagationStrategy::Aggressive;
}

// Makes the pass running propagation level `level`.
PassFn propagationPass(PropagationLevel level) {
  return [level](ir::Module& module, const PassOptions& options, support::DiagnosticSink& sink) {
    propagation::PropagationOptions out;
    out.level = level;
    out.strategy = parseStrategy(options.get("propagation-strategy"));
    out.runOpPriorityPropagation = options.getBool("run-op-priority-propagation", true);
    out.keepShardingRules = options.getBool("keep-sharding-rules", false);
    out.conservativePropagation = options.getBool("conservative-propagation", false);
    return propagation::propagate(module, out, sink);
  };
}

// Runs the registered pass `name` with option text `options`; false when it is missing or fails.
bool runNamed(ir::Module& module, std::string_view name, std::string_view options,
              support::DiagnosticSink& sink) {
  const PassInfo* pass = PassRegistry::builtin().lookup(name);
  if (!pass) {
    sink.error({}, "sdy-propagation-pipeline: pass '" + std::string(name) + "' is missing");
    return false;
  }
  PassOptions parsed;
  std::string error;
  return parsed.parse(options, error) && pass->run(module, parsed, sink);
}

// `-sdy-propagation-pipeline`: the import pipeline, user-priority propagation (keeping the rules
// it creates) and, like Shardy's `addPropagationPipeline`, the export pipeline's steps with default
// options (register_export_pipeline.cpp; meshes stay symbols).
bool runPropagationPipeline(ir::Module& module, const PassOptions& options,
                            support::DiagnosticSink& sink) {
  std::string importOptions;
  if (std::optional<std::string> dedup = options.get("dedup-functions-fully"))
    importOptions = "dedup-functions-fully=" + *dedup;
  // Without dedup-functions-fully, Shardy gives every call site its own copy of the callee
  // (flatten, symbol DCE) and reassembles the call graph after propagating.
  const bool flatten = !options.getBool("dedup-functions-fully", false);
  // Shardy orders the functions callers first before propagating.
  if (!runNamed(module, "sdy-import-pipeline", importOptions, sink) ||
      (flatten && (!propagation::flattenCallGraph(module, sink) ||
                   !propagation::eraseDeadSymbols(module, sink))) ||
      !runNamed(module, "sdy-pre-order-funcs", "", sink))
    return false;
  propagation::PropagationOptions propagationOptions;
  propagationOptions.level = PropagationLevel::UserPriority;
  propagationOptions.keepShardingRules = true;
  propagationOptions.propagateThroughCalls = true;
  propagationOptions.conservativePropagation =
      options.getBool("conservative-propagation", false);
  if (!propagation::propagate(module, propagationOptions, sink) ||
      (flatten && !propagation::exportFlattenedCallGraph(module, sink)))
    return false;
  ExportOptions exportOptions;
  exportOptions.keepShardingRules = options.getBool("keep-sharding-rules", false);
  return runExportSteps(module, exportOptions, sink);
}

} // namespace

void registerPropagationPasses(PassRegistry& registry) {
  registry.add({"sdy-propagation-pipeline",
                "import pipeline, user-priority propagation and the export clean-up steps",
                {"dedup-functions-fully", "keep-sharding-rules", "conservative-propagation",
                 "enable-late-inlining", "module-dump-directory"},
                runPropagationPipeline});
  registry.add({"sdy-basic-propagate",
                "propagates the shardings all tensors of an op agree on, to a fixpoint",
                kBasicOptions, propagationPass(PropagationLevel::Basic)});
  registry.add({"sdy-aggressive-propagate",
                "propagates shardings resolving conflicts (propagation-strategy)",
                withOptions({"propagation-strategy"}),
                propagationPass(PropagationLevel::Aggressive)});
  registry.add({"sdy-op-priority-propagate",
                "aggressive propagation in rounds of op heuristics",
                withOptions({"propagation-strategy", "run-op-priority-propagation"}),
                propagationPass(PropagationLevel::OpPriority)});
  registry.add({"sdy-user-priority-propagate",
                "op-priority propagation once per user priority of the dimension shardings",
                withOptions({"propagation-strategy", "run-op-priority-propagation"}),
                propagationPass(PropagationLevel::UserPriority)});
}

} // namespace shardscope::pipeline
