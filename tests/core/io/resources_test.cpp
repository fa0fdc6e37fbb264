// `dense_resource<key>` constants and the `{-# dialect_resources #-}` section that holds their
// bytes. Expected values are decoded by hand from the hex blobs (4 bytes of alignment, then the
// little-endian elements).
#include "core/io/mlir/mlir.h"

#include "core/support/source_manager.h"

#include <gtest/gtest.h>

using namespace shardscope;

namespace {

// f32 [1.0, 2.0, -0.5] = 0x3F800000, 0x40000000, 0xBF000000; i32 [7, -1].
constexpr const char* kProgram = R"(module {
  func.func @main() -> (tensor<3xf32>, tensor<2xi32>) {
    %cst = stablehlo.constant dense_resource<weights> : tensor<3xf32>
    %c = stablehlo.constant dense_resource<"idx|1"> : tensor<2xi32>
    return %cst, %c : tensor<3xf32>, tensor<2xi32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040000000BF",
      "idx|1": "0x0400000007000000FFFFFFFF"
    }
  }
#-}
)";

const ir::Operation* constantAt(const ir::Module& module, int index) {
  int seen = 0;
  const ir::Operation* found = nullptr;
  module.op().walk([&](const ir::Operation& op) {
    if (op.is("stablehlo.constant") && seen++ == index)
      found = &op;
  });
  return found;
}

} // namespace

TEST(ResourcesTest, DenseResourceConstantsPrintBackWithTheirBlobs) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(kProgram, 1, sink);
  ASSERT_TRUE(module) << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  // MLIR prints the blobs after the module and an empty line, hex in upper case.
  EXPECT_EQ(io::mlir::printModule(*module), kProgram);
}

TEST(ResourcesTest, BlobsDecodeToTheirElements) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(kProgram, 1, sink);
  ASSERT_TRUE(module);
  const auto* weights = constantAt(*module, 0)->attr("value").as<ir::DenseResourceAttr>();
  ASSERT_TRUE(weights);
  EXPECT_EQ(weights->blob->alignment, 4u);
  std::string error;
  auto dense = weights->toDense(error);
  ASSERT_TRUE(dense) << error;
  EXPECT_EQ(dense->floatAt(0), 1.0);
  EXPECT_EQ(dense->floatAt(1), 2.0);
  EXPECT_EQ(dense->floatAt(2), -0.5);
  const auto* idx = constantAt(*module, 1)->attr("value").as<ir::DenseResourceAttr>();
  ASSERT_TRUE(idx);
  EXPECT_EQ(idx->blob->key, "idx|1");
  auto ints = idx->toDense(error);
  ASSERT_TRUE(ints) << error;
  EXPECT_EQ(ints->intAt(0), 7);
  EXPECT_EQ(ints->intAt(1), -1);
}

TEST(ResourcesTest, MissingResourceIsALocatedError) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(func.func @main() -> tensor<2xf32> {
  %cst = stablehlo.constant dense_resource<nowhere> : tensor<2xf32>
  return %cst : tensor<2xf32>
}
)",
                                      1, sink);
  EXPECT_FALSE(module);
  ASSERT_TRUE(sink.hasErrors());
  EXPECT_EQ(sink.diagnostics()[0].message,
            "dense resource 'nowhere' is not defined in the file's dialect_resources");
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 2u);
  EXPECT_EQ(sink.diagnostics()[0].loc.column, 44u);
}

TEST(ResourcesTest, ElidedResourcesLoadWithoutData) {
  // What MLIR prints when told to elide large constants: the program loads (shardings can be
  // studied), only its values are unknown.
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(func.func @main() -> tensor<2xf32> {
  %cst = stablehlo.constant dense_resource<__elided__> : tensor<2xf32>
  return %cst : tensor<2xf32>
}
)",
                                      1, sink);
  ASSERT_TRUE(module) << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  const auto* attr = constantAt(*module, 0)->attr("value").as<ir::DenseResourceAttr>();
  ASSERT_TRUE(attr);
  std::string error;
  EXPECT_FALSE(attr->toDense(error));
  EXPECT_EQ(error, "dense resource '__elided__' has no data");
  EXPECT_EQ(io::mlir::printModule(*module), R"(module {
  func.func @main() -> tensor<2xf32> {
    %cst = stablehlo.constant dense_resource<__elided__> : tensor<2xf32>
    return %cst : tensor<2xf32>
  }
}
)");
}

TEST(ResourcesTest, BlobOfTheWrongSizeCannotBeDecoded) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(func.func @main() -> tensor<2xf32> {
  %cst = stablehlo.constant dense_resource<short> : tensor<2xf32>
  return %cst : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      short: "0x040000000000803F"
    }
  }
#-}
)",
                                      1, sink);
  ASSERT_TRUE(module);
  std::string error;
  EXPECT_FALSE(constantAt(*module, 0)->attr("value").as<ir::DenseResourceAttr>()->toDense(error));
  EXPECT_EQ(error, "dense resource 'short' holds 4 bytes, but 'tensor<2xf32>' needs 8");
}

TEST(ResourcesTest, MalformedMetadataIsALocatedError) {
  for (const char* bad : {R"({-# dialect_resources: { builtin: { k: "0xZZ000000" } } #-})",
                          R"({-# dialect_resources: { builtin: { k: 12 } } #-})",
                          R"({-# bogus: {} #-})", R"({-# dialect_resources: { builtin: { k: "0x04000000")"}) {
    support::CollectingSink sink;
    std::string text = std::string("func.func @main() {\n  return\n}\n") + bad + "\n";
    EXPECT_FALSE(io::mlir::parseModule(text, 1, sink)) << bad;
    ASSERT_TRUE(sink.hasErrors()) << bad;
    EXPECT_GE(sink.diagnostics()[0].loc.line, 4u) << bad << ": " << sink.diagnostics()[0].message;
  }
}
