// Values are freed after their last use when the interpreter is asked to (`FreeAfterLastUse`):
// the number of values a frame holds stays bounded along a chain, the release hook sees each
// value go with the op that used it last, and results survive.
#include "tests/core/exec/exec_test_util.h"

#include <map>

namespace shardscope::exec {
namespace {

// %a + %b, then 20 more adds of %b: 21 chained adds, each value used once by the next.
std::string chainProgram(int adds) {
  std::string t = "tensor<4xf32>";
  std::string text = "func.func @main(%a: " + t + ", %b: " + t + ") -> " + t + " {\n";
  std::string prev = "%a";
  for (int i = 0; i < adds; ++i) {
    std::string next = "%v" + std::to_string(i);
    text += "  " + next + " = stablehlo.add " + prev + ", %b : " + t + "\n";
    prev = next;
  }
  return text + "  return " + prev + " : " + t + "\n}\n";
}

struct Stepped {
  size_t maxLive = 0;
  std::vector<Tensor> results;
};

Stepped stepThrough(const ir::Module& module, ValueRetention retention,
                    ValueReleaseHook hook = {}) {
  support::CollectingSink sink;
  Interpreter interp(module);
  interp.setValueRetention(retention, std::move(hook));
  Stepped out;
  EXPECT_TRUE(interp.start("main", {testing::f32({4}, {1, 2, 3, 4}), testing::f32({4}, {1, 1, 1, 1})}, sink));
  while (interp.step())
    out.maxLive = std::max(out.maxLive, interp.liveValueCount());
  EXPECT_TRUE(interp.finished());
  out.results = interp.results();
  return out;
}

TEST(LivenessTest, ChainHoldsAConstantNumberOfValues) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(chainProgram(21), 1, sink);
  ASSERT_TRUE(module);
  Stepped freed = stepThrough(*module, ValueRetention::FreeAfterLastUse);
  // After each add: %b and the newest sum (the previous sum went with its only use).
  EXPECT_EQ(freed.maxLive, 2u);
  Stepped kept = stepThrough(*module, ValueRetention::KeepAll);
  EXPECT_EQ(kept.maxLive, 2u + 21u);
  ASSERT_EQ(freed.results.size(), 1u);
  // 1..4 plus 21 ones.
  EXPECT_EQ(testing::values(freed.results[0]), (std::vector<double>{22, 23, 24, 25}));
  EXPECT_EQ(freed.results[0], kept.results[0]);
}

TEST(LivenessTest, ReleaseHookNamesTheLastUser) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(
      "func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  %x = stablehlo.add %a, %b : tensor<2xf32>\n"
      "  %dead = stablehlo.multiply %a, %a : tensor<2xf32>\n"
      "  %y = stablehlo.negate %x : tensor<2xf32>\n"
      "  return %y : tensor<2xf32>\n}\n",
      1, sink);
  ASSERT_TRUE(module);
  std::map<std::string, std::string> lastUser;
  Interpreter interp(*module);
  interp.setValueRetention(ValueRetention::FreeAfterLastUse,
                           [&](const ir::Value& v, const ir::Operation& op, const Tensor&) {
                             lastUser[v.nameHint()] = std::string(op.name());
                           });
  ASSERT_TRUE(interp.start("main", {testing::f32({2}, {1, 2}), testing::f32({2}, {3, 4})}, sink));
  const ir::Block& body = *ir::func::body(*module->lookupFunction("main"));
  const ir::Value* dead = std::next(body.ops().begin())->get()->result(0);
  ASSERT_TRUE(interp.step()); // %x
  ASSERT_TRUE(interp.step()); // %dead: readable right after the step that computed it
  EXPECT_NE(interp.lookup(dead), nullptr);
  ASSERT_TRUE(interp.step()); // %y: %dead goes now, unused
  EXPECT_EQ(interp.lookup(dead), nullptr);
  while (interp.step()) {
  }
  ASSERT_TRUE(interp.finished());
  EXPECT_EQ(lastUser["b"], "stablehlo.add");
  EXPECT_EQ(lastUser["a"], "stablehlo.multiply");
  EXPECT_EQ(lastUser["x"], "stablehlo.negate");
  EXPECT_EQ(lastUser["dead"], "stablehlo.negate");
  EXPECT_EQ(lastUser["y"], "func.return");
  EXPECT_EQ(testing::values(interp.results()[0]), (std::vector<double>{-4, -6}));
}

TEST(LivenessTest, ValuesUsedInsideALoopLiveUntilTheLoopEnds) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(
      "func.func @main(%a: tensor<f32>, %step: tensor<f32>) -> tensor<f32> {\n"
      "  %zero = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %r:2 = stablehlo.while(%i = %zero, %x = %a) : tensor<i32>, tensor<f32>\n"
      "   cond {\n"
      "    %n = stablehlo.constant dense<3> : tensor<i32>\n"
      "    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    stablehlo.return %c : tensor<i1>\n"
      "  } do {\n"
      "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
      "    %j = stablehlo.add %i, %one : tensor<i32>\n"
      "    %y = stablehlo.add %x, %step : tensor<f32>\n"
      "    stablehlo.return %j, %y : tensor<i32>, tensor<f32>\n"
      "  }\n"
      "  return %r#1 : tensor<f32>\n}\n",
      1, sink);
  ASSERT_TRUE(module) << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  Interpreter interp(*module);
  interp.setValueRetention(ValueRetention::FreeAfterLastUse);
  auto results = interp.run("main", {Tensor::fromDoubles(ir::ElementType::F32, {}, std::vector<double>{1}),
                                     Tensor::fromDoubles(ir::ElementType::F32, {}, std::vector<double>{0.5})},
                            sink);
  ASSERT_TRUE(results) << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  EXPECT_EQ(results->at(0).floatAt(0), 2.5);
}

} // namespace
} // namespace shardscope::exec
