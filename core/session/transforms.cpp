#include "core/session/transforms.h"

#include "core/autodiff/function_costs.h"
#include "core/io/mlir/mlir.h"
#include "core/session/program.h"

namespace shardscope::session {

namespace {

autodiff::AutodiffResult build(ir::Module& module, const TransformRequest& request,
                               const std::string& function, autodiff::CollectiveRules rules,
                               support::DiagnosticSink& sink) {
  if (request.kind == Transform::Grad) {
    autodiff::GradOptions options;
    options.function = function;
    options.wrt = request.arguments;
    options.rules = rules;
    return autodiff::grad(module, options, sink);
  }
  autodiff::TransposeOptions options;
  options.function = function;
  options.linearIn = request.arguments;
  options.rules = rules;
  return autodiff::transpose(module, options, sink);
}

} // namespace

std::optional<TransformResult> transformFunction(const Program& program,
                                                 const TransformRequest& request,
                                                 support::DiagnosticSink& sink) {
  TransformResult out;
  out.module = program.asWritten().clone();
  out.rules = request.naive ? autodiff::CollectiveRules::Naive : autodiff::CollectiveRules::Efficient;
  out.otherRules =
      request.naive ? autodiff::CollectiveRules::Efficient : autodiff::CollectiveRules::Naive;
  support::ErrorTrackingSink tracking(sink);
  autodiff::AutodiffResult asked = build(*out.module, request, request.function, out.rules, tracking);
  if (!asked.function || tracking.hadError())
    return std::nullopt;
  // The module now holds one more function: the second build names the source explicitly.
  autodiff::AutodiffResult other = build(
      *out.module, request, std::string(ir::func::name(*asked.source)), out.otherRules, tracking);
  if (!other.function || tracking.hadError())
    return std::nullopt;
  out.source = asked.source;
  out.function = asked.function;
  out.compared = other.function;
  out.arguments = std::move(asked.arguments);
  out.costs = autodiff::functionCosts(*out.module, *out.function);
  out.otherCosts = autodiff::functionCosts(*out.module, *out.compared);
  return out;
}

PartitionedCosts TransformResult::partitionedCosts() const {
  // Outside manual computations the partitioner inserts collectives: partition the module with
  // both functions as `partition` would, from its printed text (a program of its own).
  PartitionedCosts out;
  support::CollectingSink sink;
  auto program = Program::fromText("<autodiff>", io::mlir::printModule(*module), sink);
  const ir::Module* partitioned = program ? program->stage(Stage::Partitioned, sink) : nullptr;
  const bool naiveAsked = rules == autodiff::CollectiveRules::Naive;
  const std::string efficientName(ir::func::name(naiveAsked ? *compared : *function));
  const std::string naiveName(ir::func::name(naiveAsked ? *function : *compared));
  const ir::Operation* efficient = partitioned ? partitioned->lookupFunction(efficientName) : nullptr;
  const ir::Operation* naive = partitioned ? partitioned->lookupFunction(naiveName) : nullptr;
  if (!efficient || !naive) {
    if (!sink.diagnostics().empty())
      out.error = sink.diagnostics().front().message;
    return out;
  }
  out.partitioned = true;
  out.efficient = autodiff::functionCosts(*partitioned, *efficient);
  out.naive = autodiff::functionCosts(*partitioned, *naive);
  return out;
}

} // namespace shardscope::session
