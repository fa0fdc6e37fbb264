#pragma once
// Helpers of the core/autodiff tests: parse programs, add transposes and gradients, print one
// function for structural comparisons, and run functions on one device or on the simulated mesh.

#include "core/autodiff/autodiff.h"
#include "core/exec/interpreter.h"
#include "core/exec/tensor.h"
#include "core/io/mlir/mlir.h"
#include "core/session/execution.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace shardscope::autodiff::testing {

inline std::string messages(const support::CollectingSink& sink) {
  std::string out;
  for (const auto& d : sink.diagnostics())
    out +=
        std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column) + ": " + d.message + "\n";
  return out;
}

inline std::string readTestData(const std::string& relative) {
  std::ifstream in(std::string(SHARDSCOPE_TEST_DATA_DIR) + "/" + relative);
  EXPECT_TRUE(in.good()) << "cannot read " << relative;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

inline std::unique_ptr<ir::Module> parse(std::string_view text) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  EXPECT_TRUE(module && !sink.hasErrors()) << messages(sink);
  return sink.hasErrors() ? nullptr : std::move(module);
}

/// The printed text of function `name`, renamed `@F`, with channel handles blanked: two
/// functions are structurally equal when these texts are.
inline std::string functionText(const ir::Module& module, const std::string& name) {
  std::string text = io::mlir::printModule(module);
  std::string header = "func.func @" + name + "(";
  size_t start = text.find(header);
  if (start == std::string::npos)
    return "no function @" + name;
  size_t end = text.find("\n  }\n", start);
  std::string body = text.substr(start, end - start);
  body.replace(0, header.size(), "func.func @F(");
  return std::regex_replace(body, std::regex("handle = [0-9]+"), "handle = N");
}

/// The names of the ops of `name` (nested ones included, pre-order), e.g. to list collectives.
inline std::vector<std::string> opNames(const ir::Module& module, const std::string& name,
                                        const std::vector<std::string>& only = {}) {
  std::vector<std::string> out;
  const ir::Operation* fn = module.lookupFunction(name);
  if (!fn)
    return {"no function @" + name};
  fn->walk([&](const ir::Operation& op) {
    std::string n(op.name());
    if (only.empty() || std::find(only.begin(), only.end(), n) != only.end())
      out.push_back(n + (op.hasAttr("shardscope.all_gather_invariant") ? " (invariant)" : ""));
  });
  return out;
}

inline const std::vector<std::string> kCollectives = {
    "stablehlo.all_reduce", "stablehlo.all_gather", "stablehlo.reduce_scatter",
    "stablehlo.all_to_all", "stablehlo.collective_permute"};

/// Adds the transpose of `fn` linear in `linear`; returns its name ("" after failing the test).
inline std::string addTranspose(ir::Module& module, const std::string& fn,
                                std::vector<std::string> linear,
                                CollectiveRules rules = CollectiveRules::Efficient,
                                const std::string& newName = "") {
  support::CollectingSink sink;
  TransposeOptions options;
  options.function = fn;
  options.linearIn = std::move(linear);
  options.rules = rules;
  options.newName = newName;
  AutodiffResult result = transpose(module, options, sink);
  EXPECT_TRUE(result.function && !sink.hasErrors()) << messages(sink);
  return result.function ? std::string(ir::func::name(*result.function)) : "";
}

inline std::string addGrad(ir::Module& module, const std::string& fn, std::vector<std::string> wrt,
                           CollectiveRules rules = CollectiveRules::Efficient) {
  support::CollectingSink sink;
  GradOptions options;
  options.function = fn;
  options.wrt = std::move(wrt);
  options.rules = rules;
  AutodiffResult result = grad(module, options, sink);
  EXPECT_TRUE(result.function && !sink.hasErrors()) << messages(sink);
  return result.function ? std::string(ir::func::name(*result.function)) : "";
}

/// Uniform random tensors of `type` in [lo, hi).
inline exec::Tensor randomTensor(ir::Type type, std::mt19937& rng, double lo = -1, double hi = 1) {
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<int64_t> shape(type.shape().begin(), type.shape().end());
  std::vector<double> values(static_cast<size_t>(type.numElements()));
  for (double& v : values)
    v = dist(rng);
  return exec::Tensor::fromDoubles(type.elementType(), shape, values);
}

/// Runs `fn` of `module` on one device.
inline std::vector<exec::Tensor> runLocal(const ir::Module& module, const std::string& fn,
                                          std::vector<exec::Tensor> inputs) {
  support::CollectingSink sink;
  exec::Interpreter interpreter(module);
  auto results = interpreter.run(fn, std::move(inputs), sink);
  EXPECT_TRUE(results) << "running @" << fn << ": " << messages(sink);
  return results.value_or(std::vector<exec::Tensor>{});
}

/// Runs `fn` of `module` (printed and reloaded) as the per-device program on every device of its
/// mesh, and returns the assembled global results.
inline std::vector<exec::Tensor> runOnMesh(const ir::Module& module, const std::string& fn,
                                           std::vector<exec::Tensor> inputs) {
  support::CollectingSink sink;
  auto program = session::Program::fromText("autodiff.mlir", io::mlir::printModule(module), sink);
  EXPECT_TRUE(program) << messages(sink);
  if (!program)
    return {};
  session::ExecutionOptions options;
  options.function = fn;
  auto execution = session::Execution::create(*program, options, sink);
  EXPECT_TRUE(execution) << messages(sink);
  if (!execution)
    return {};
  EXPECT_TRUE(execution->setInputs(std::move(inputs))) << messages(sink);
  EXPECT_TRUE(execution->start()) << messages(sink);
  EXPECT_EQ(execution->runToEnd(), session::StopReason::Finished) << messages(sink);
  std::string error;
  auto results = execution->globalResults(error);
  EXPECT_TRUE(results) << error << messages(sink);
  return results.value_or(std::vector<exec::Tensor>{});
}

/// Sum of elementwise products.
inline double dot(const exec::Tensor& a, const exec::Tensor& b) {
  double sum = 0;
  for (int64_t i = 0; i < a.numElements() && i < b.numElements(); ++i)
    sum += a.floatAt(i) * b.floatAt(i);
  return sum;
}

/// The argument types of function `fn`.
inline std::vector<ir::Type> argumentTypes(const ir::Module& module, const std::string& fn) {
  const ir::Operation* f = module.lookupFunction(fn);
  if (!f)
    return {};
  auto types = ir::func::type(*f).elements();
  return {types.begin(), types.end()};
}

inline std::vector<ir::Type> resultTypes(const ir::Module& module, const std::string& fn) {
  const ir::Operation* f = module.lookupFunction(fn);
  if (!f)
    return {};
  auto types = ir::func::type(*f).results();
  return {types.begin(), types.end()};
}

} // namespace shardscope::autodiff::testing
