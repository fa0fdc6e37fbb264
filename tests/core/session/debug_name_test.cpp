// The names an inspector shows for an op or a value, from the debug locations JAX writes.
#include "core/session/debug_name.h"

#include "core/io/mlir/mlir.h"
#include "core/support/diagnostic.h"

#include <gtest/gtest.h>

using namespace shardscope;

TEST(DebugNameTest, OpsValuesAndArgumentsHaveTheirJaxNames) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(func.func @main(%arg0: tensor<4xf32> loc("x")) -> tensor<4xf32> {
  %0 = stablehlo.sine %arg0 : tensor<4xf32> loc(#loc2)
  %1 = stablehlo.cosine %0 : tensor<4xf32> loc("model.py":9:4)
  return %1 : tensor<4xf32>
}
#loc1 = loc("model.py":7:2)
#loc2 = loc("sin:"("jit(f)/jit(main)/sin"(#loc1)))
)",
                                      1, sink);
  ASSERT_TRUE(module);
  const ir::Block* body = ir::func::body(*module->functions()[0]);
  const ir::Operation& sine = *body->ops().front();

  session::DebugName op = session::debugNameOf(*module, sine);
  EXPECT_EQ(op.jaxName, "jit(f)/jit(main)/sin");
  EXPECT_EQ(op.shortName, "sin");
  EXPECT_EQ(op.label, "jit(f)/jit(main)/sin");
  EXPECT_EQ(op.location, R"(loc("sin:"("jit(f)/jit(main)/sin"("model.py":7:2))))");

  session::DebugName result = session::debugNameOf(*module, *sine.result(0));
  EXPECT_EQ(result.jaxName, "jit(f)/jit(main)/sin");

  session::DebugName arg = session::debugNameOf(*module, *body->argument(0));
  EXPECT_EQ(arg.jaxName, "x");
  EXPECT_EQ(arg.shortName, "x");
  EXPECT_EQ(arg.location, R"(loc("x"))");

  // No name: the file and line are the label.
  session::DebugName cosine = session::debugNameOf(*module, *std::next(body->ops().begin())->get());
  EXPECT_EQ(cosine.jaxName, "");
  EXPECT_EQ(cosine.shortName, "");
  EXPECT_EQ(cosine.label, "model.py:9");

  session::DebugName ret = session::debugNameOf(*module, *body->back());
  EXPECT_EQ(ret.label, "");
  EXPECT_EQ(ret.location, "");
}
