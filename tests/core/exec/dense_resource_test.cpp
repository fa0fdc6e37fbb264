// Running `dense_resource` constants: the interpreter reads the blob's elements (expected values
// decoded by hand from the hex), and says so, located, when there is no data.
#include "core/exec/interpreter.h"

#include "tests/core/exec/exec_test_util.h"

using namespace shardscope;
using namespace shardscope::exec;
using namespace shardscope::exec::testing;

TEST(DenseResourceExecTest, ConstantEvaluatesToTheBlobElements) {
  // f32 [1.5, -2.0, 0.25, 8.0] = 0x3FC00000, 0xC0000000, 0x3E800000, 0x41000000.
  const char* text = R"(func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %cst = stablehlo.constant dense_resource<w> : tensor<4xf32>
  %0 = stablehlo.add %a, %cst : tensor<4xf32>
  return %0 : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000C03F000000C00000803E00000041"
    }
  }
#-}
)";
  EXPECT_EQ(values(runOne(text, {f32({4}, {1, 1, 1, 1})})),
            (std::vector<double>{2.5, -1.0, 1.25, 9.0}));
}

TEST(DenseResourceExecTest, ElidedConstantCannotRun) {
  const char* text = R"(func.func @main() -> tensor<2xf32> {
  %cst = stablehlo.constant dense_resource<__elided__> : tensor<2xf32>
  return %cst : tensor<2xf32>
}
)";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, /*fileId=*/1, sink);
  ASSERT_TRUE(module);
  Interpreter interpreter(*module);
  EXPECT_FALSE(interpreter.run("main", {}, sink));
  ASSERT_TRUE(sink.hasErrors());
  EXPECT_EQ(sink.diagnostics()[0].message,
            "'stablehlo.constant': dense resource '__elided__' has no data");
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 2u);
}
