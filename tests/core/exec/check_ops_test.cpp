// StableHLO's `check` dialect in its short forms (CheckOps.td's assembly formats) and the rules
// of each check as stablehlo/tests/CheckOps.cpp states them.
#include "core/exec/interpreter.h"
#include "core/io/mlir/mlir.h"

#include <gtest/gtest.h>

#include <string>

namespace shardscope::exec {
namespace {

struct Outcome {
  bool parsed = false;
  bool ran = false;
  bool failedCheck = false;
  std::string firstError;
};

// Parses `body` as the body of `@main`, runs it and reports what happened.
Outcome runChecks(const std::string& body, InterpreterHooks hooks = {}) {
  Outcome o;
  support::CollectingSink sink;
  std::string text = "func.func @main() {\n" + body + "\n  func.return\n}\n";
  auto module = io::mlir::parseModule(text, /*fileId=*/1, sink);
  if (!sink.diagnostics().empty())
    o.firstError = sink.diagnostics()[0].message;
  if (!module)
    return o;
  o.parsed = true;
  Interpreter interpreter(*module);
  interpreter.setHooks(std::move(hooks));
  o.ran = interpreter.run("main", {}, sink).has_value();
  o.failedCheck = interpreter.failedCheck();
  if (o.firstError.empty() && !sink.diagnostics().empty())
    o.firstError = sink.diagnostics()[0].message;
  return o;
}

TEST(CheckOpsTest, ShortFormsParseAndPass) {
  Outcome o = runChecks(R"(
  %a = stablehlo.constant dense<[-2, 0, 2]> : tensor<3xi64>
  %b = stablehlo.constant dense<[-2, 0, 2]> : tensor<3xi64>
  check.expect_eq %a, %b : tensor<3xi64>
  check.expect_eq_const %a, dense<[-2, 0, 2]> : tensor<3xi64>
  %f = stablehlo.constant dense<5.0> : tensor<f64>
  %g = stablehlo.constant dense<5.0001> : tensor<f64>
  check.expect_almost_eq %f, %g : tensor<f64>
  check.expect_almost_eq %f, %g, tolerance = 0.1 : tensor<f64>
  check.expect_almost_eq_const %f, dense<5.1> : tensor<f64> {tolerance = 0.2 : f64}
  check.expect_almost_eq_const %f, dense<5.1> : tensor<f64>, tolerance = 0.2
  check.expect_close %f, %f, max_ulp_difference = 0 : tensor<f64>, tensor<f64>)");
  EXPECT_TRUE(o.parsed) << o.firstError;
  EXPECT_TRUE(o.ran) << o.firstError;
  EXPECT_FALSE(o.failedCheck) << o.firstError;
}

TEST(CheckOpsTest, MismatchIsAFailedCheck) {
  Outcome o = runChecks(R"(
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %a, dense<[1, 3]> : tensor<2xi32>)");
  EXPECT_TRUE(o.parsed) << o.firstError;
  EXPECT_TRUE(o.failedCheck);
  EXPECT_NE(o.firstError.find("element [1]"), std::string::npos) << o.firstError;
}

TEST(CheckOpsTest, AlmostEqDefaultToleranceIsOneTenThousandth) {
  // 5.0 vs 5.001 differ by 1e-3 > 1e-4.
  Outcome o = runChecks(R"(
  %f = stablehlo.constant dense<5.0> : tensor<f64>
  check.expect_almost_eq_const %f, dense<5.001> : tensor<f64>)");
  EXPECT_TRUE(o.failedCheck);
}

TEST(CheckOpsTest, ExpectCloseCountsUlpsBetweenBounds) {
  // 1.0f and the next float up (0x3F800001) are 1 ulp apart.
  std::string values = R"(
  %a = stablehlo.constant dense<1.0> : tensor<f32>
  %b = stablehlo.constant dense<0x3F800001> : tensor<f32>
)";
  EXPECT_FALSE(runChecks(values + "  check.expect_close %a, %b, max_ulp_difference = 1 : "
                                  "tensor<f32>, tensor<f32>")
                   .failedCheck);
  EXPECT_TRUE(runChecks(values + "  check.expect_close %a, %b, max_ulp_difference = 0 : "
                                 "tensor<f32>, tensor<f32>")
                  .failedCheck);
  // min_ulp_difference asks for at least that many ulps: equal values then fail.
  EXPECT_TRUE(runChecks(values + "  check.expect_close %a, %a, max_ulp_difference = 3, "
                                 "min_ulp_difference = 1 : tensor<f32>, tensor<f32>")
                  .failedCheck);
  // Opposite signs: the distances from zero add up (-1 ulp to +1 ulp is 2).
  EXPECT_TRUE(runChecks(R"(
  %a = stablehlo.constant dense<0x00000001> : tensor<f32>
  %b = stablehlo.constant dense<0x80000001> : tensor<f32>
  check.expect_close %a, %b, max_ulp_difference = 1 : tensor<f32>, tensor<f32>)")
                  .failedCheck);
}

TEST(CheckOpsTest, ProbeAndSerializedEqGoThroughTheHooks) {
  std::vector<std::pair<std::string, Tensor>> recorded;
  InterpreterHooks hooks;
  hooks.probe = [&](const std::string& id, const Tensor& t, std::string&) {
    recorded.emplace_back(id, t);
    return true;
  };
  hooks.loadProbe = [&](const std::string& id, uint32_t iteration, ir::Type,
                        std::string& type, std::string&) -> std::optional<Tensor> {
    uint32_t seen = 0;
    for (auto& [name, t] : recorded)
      if (name == id && seen++ == iteration) {
        type = t.type().str();
        return t;
      }
    return std::nullopt;
  };
  Outcome o = runChecks(R"(
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = interpreter.probe %a, probe_id = "p0" : tensor<2xi32>
  check.expect_serialized_eq %b, probe_id = "p0" : tensor<2xi32>
  check.expect_serialized_eq %b, probe_id = "p0", iter = 0 : tensor<2xi32>)",
                        hooks);
  EXPECT_TRUE(o.ran) << o.firstError;
  EXPECT_FALSE(o.failedCheck) << o.firstError;
  ASSERT_EQ(recorded.size(), 1u);
  EXPECT_EQ(recorded[0].first, "p0");
  // A second iteration was never recorded.
  Outcome missing = runChecks(R"(
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  check.expect_serialized_eq %a, probe_id = "p0", iter = 1 : tensor<2xi32>)",
                              hooks);
  EXPECT_FALSE(missing.ran);
}

TEST(CheckOpsTest, PrintHandsTheValueToTheHook) {
  std::string printed;
  InterpreterHooks hooks;
  hooks.print = [&](const ir::Operation&, const Tensor& t) { printed = t.str(); };
  Outcome o = runChecks(R"(
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  interpreter.print %a : tensor<2xi32>)",
                        hooks);
  EXPECT_TRUE(o.ran) << o.firstError;
  EXPECT_EQ(printed, "tensor<2xi32> [1, 2]");
}

} // namespace
} // namespace shardscope::exec
