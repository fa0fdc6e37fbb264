// `interpreter.run_parallel`, the StableHLO interpreter's op that runs a num_replicas x
// num_partitions grid of functions (InterpreterOps.cpp RunParallelOp::verify): a rectangular,
// non-empty grid of functions of the module, as many inputs and results as the grid's functions
// take and return together, and infeed functions that each return one tensor.

#include "core/verify/detail/op_context.h"

namespace shardscope::verify::detail {

namespace {

// The function `ref` names, as a quoted name for messages and the op (null when absent).
const ir::Operation* functionOf(const OpContext& ctx, const ir::Attribute& ref, std::string& name) {
  const auto* symbol = ref.as<ir::SymbolRefAttr>();
  if (!symbol || symbol->path.size() != 1) {
    name = "\"" + ref.str() + "\"";
    return nullptr;
  }
  name = "\"" + symbol->path.front() + "\"";
  const ir::Operation* fn = ctx.module.lookupFunction(symbol->path.front());
  return fn && fn->is("func.func") ? fn : nullptr;
}

bool verifyRunParallel(const OpContext& ctx) {
  const auto* programs = ctx.op.attr("programs").as<ir::ArrayAttr>();
  const auto* first = programs && !programs->elements.empty()
                          ? programs->elements.front().as<ir::ArrayAttr>()
                          : nullptr;
  if (!first || first->elements.empty())
    return ctx.error("`programs` attribute cannot be empty");
  size_t numArgs = 0, numResults = 0;
  const size_t numPartitions = first->elements.size();
  for (const ir::Attribute& row : programs->elements) {
    const auto* replica = row.as<ir::ArrayAttr>();
    const size_t size = replica ? replica->elements.size() : 0;
    if (size != numPartitions)
      return ctx.error("Sizes of second dimension of `programs` should all match " +
                       std::to_string(numPartitions) + " but got " + std::to_string(size));
    for (const ir::Attribute& program : replica->elements) {
      std::string name;
      const ir::Operation* fn = functionOf(ctx, program, name);
      if (!fn)
        return ctx.error("Function " + name + " not found");
      ir::Type type = ir::func::type(*fn);
      numArgs += type.elements().size();
      numResults += type.results().size();
    }
  }
  if (ctx.op.numOperands() != numArgs)
    return ctx.error("Number of inputs (" + std::to_string(ctx.op.numOperands()) +
                     ") should match the sum of the number of inputs of all programs (" +
                     std::to_string(numArgs) + ")");
  if (ctx.op.numResults() != numResults)
    return ctx.error("Number of results (" + std::to_string(ctx.op.numResults()) +
                     ") should match the sum of the number of results of all programs (" +
                     std::to_string(numResults) + ")");
  if (ir::Attribute infeedAttr = ctx.op.attr("infeed")) {
    const auto* infeed = infeedAttr.as<ir::ArrayAttr>();
    if (!infeed || infeed->elements.empty())
      return ctx.error("infeed attribute is optional or should not be empty");
    for (const ir::Attribute& ref : infeed->elements) {
      std::string name;
      const ir::Operation* fn = functionOf(ctx, ref, name);
      if (!fn)
        return ctx.error("Function " + name + " not found");
      std::span<const ir::Type> results = ir::func::type(*fn).results();
      if (results.size() != 1)
        return ctx.error("Function " + name + " should return 1 tensor but returns " +
                         std::to_string(results.size()));
      if (!results.front().isTensor() && results.front().kind() != ir::Type::Kind::Opaque)
        return ctx.error("Function " + name +
                         " should return a tensor type, but instead returns " +
                         quoted(results.front()));
    }
  }
  return true;
}

} // namespace

void addInterpreterRules(RuleTable& table) {
  table.emplace("interpreter.run_parallel", OpRules{&verifyRunParallel, nullptr});
}

} // namespace shardscope::verify::detail
