// Tests of `-xla-sdy-export-named-computations='dedup-functions-fully=true'`: XLA keeps one
// function per name, made from the named computation whose shardings are the most common, and
// reshards with `mhlo.copy` where a call site disagrees (see XLA's
// round_trip_common/export_named_computations.cc). Expected values are derived by hand from that
// rule.
#include "core/import/common/export_named_computations.h"
#include "core/io/mlir/mlir.h"

#include <gtest/gtest.h>

using namespace shardscope;

namespace {

constexpr std::string_view kMesh = "sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n";

std::string exportDeduped(std::string_view program, bool dedup = true) {
  std::string source = std::string(kMesh) + std::string(program);
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(source, 1, sink);
  EXPECT_TRUE(module) << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  if (!module)
    return {};
  EXPECT_TRUE(import_::exportNamedComputations(*module, dedup, sink));
  return io::mlir::printModule(*module);
}

size_t count(const std::string& text, std::string_view part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

// Named computation `baz` with in sharding `in` and out sharding `out` (empty: none) on %arg.
std::string baz(const std::string& result, const std::string& arg, const std::string& in,
                const std::string& out) {
  std::string text = "  " + result + " = sdy.named_computation<\"baz\">(" + arg +
                     ") in_shardings=[<@mesh, " + in + ">]";
  if (!out.empty())
    text += " out_shardings=[<@mesh, " + out + ">]";
  text += R"( (%a: tensor<8x2xi32>) {
    %m = stablehlo.multiply %a, %a : tensor<8x2xi32>
    sdy.return %m : tensor<8x2xi32>
  } : (tensor<8x2xi32>) -> tensor<8x2xi32>
)";
  return text;
}

const std::string kHeader =
    "func.func @main(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, "
    "{\"y\"}]>}) -> tensor<8x2xi32> {\n";

TEST(ExportNamedComputationsDedupTest, OneFunctionAndACopyToTheSecondSitesOutSharding) {
  std::string printed = exportDeduped(kHeader + baz("%0", "%arg0", "[{}, {\"y\"}]", "[{\"x\"}, {}]") +
                                      baz("%1", "%arg0", "[{}, {\"y\"}]", "[{\"x\"}, {\"y\"}]") +
                                      "  %2 = stablehlo.add %0, %1 : tensor<8x2xi32>\n"
                                      "  return %2 : tensor<8x2xi32>\n}\n");
  // A tie: the first named computation gives the function.
  EXPECT_EQ(count(printed, "func.func private @baz"), 1u) << printed;
  EXPECT_EQ(count(printed, "func.func private @baz_"), 0u) << printed;
  EXPECT_EQ(count(printed, "-> (tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {}]>})"),
            1u)
      << printed;
  EXPECT_EQ(count(printed, "call @baz(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
                           "[{\"x\"}, {}]>]>}"),
            2u)
      << printed;
  EXPECT_EQ(count(printed, "mhlo.copy"), 1u) << printed;
  EXPECT_NE(printed.find("mhlo.copy %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}, "
                         "{\"y\"}]>]>}"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("stablehlo.add %0, %2"), std::string::npos) << printed;
}

TEST(ExportNamedComputationsDedupTest, MostCommonShardingsGiveTheFunction) {
  std::string printed = exportDeduped(kHeader + baz("%0", "%arg0", "[{}, {\"y\"}]", "[{\"x\"}, {}]") +
                                      baz("%1", "%arg0", "[{}, {\"y\"}]", "[{\"x\"}, {\"y\"}]") +
                                      baz("%2", "%0", "[{}, {\"y\"}]", "[{\"x\"}, {\"y\"}]") +
                                      "  return %2 : tensor<8x2xi32>\n}\n");
  EXPECT_EQ(count(printed, "-> (tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, "
                           "{\"y\"}]>})"),
            1u)
      << printed;
  // The first site's result is copied to its out sharding, and that copy to the function's
  // argument sharding before the third call.
  EXPECT_EQ(count(printed, "mhlo.copy"), 2u) << printed;
  EXPECT_NE(printed.find("mhlo.copy %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, "
                         "{\"y\"}]>]>}"),
            std::string::npos)
      << printed;
}

TEST(ExportNamedComputationsDedupTest, OperandWithOtherShardingIsCopiedBeforeTheCall) {
  std::string printed = exportDeduped(
      "func.func @main(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, "
      "{\"x\"}]>}) -> tensor<8x2xi32> {\n" +
      baz("%0", "%arg0", "[{}, {\"y\"}]", "[{\"x\"}, {}]") + "  return %0 : tensor<8x2xi32>\n}\n");
  EXPECT_NE(printed.find("%0 = mhlo.copy %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
                         "[{}, {\"y\"}]>]>}"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("call @baz(%0)"), std::string::npos) << printed;
}

TEST(ExportNamedComputationsDedupTest, MissingOutShardingCountsAsClosedReplicated) {
  std::string printed = exportDeduped(kHeader + baz("%0", "%arg0", "[{}, {\"y\"}]", "[{}, {\"y\"}]") +
                                      baz("%1", "%arg0", "[{}, {\"y\"}]", "") +
                                      "  %2 = stablehlo.add %0, %1 : tensor<8x2xi32>\n"
                                      "  return %2 : tensor<8x2xi32>\n}\n");
  EXPECT_EQ(count(printed, "call @baz(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, "
                           "{\"y\"}]>]>}"),
            2u)
      << printed;
  EXPECT_NE(printed.find("mhlo.copy %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, "
                         "{}]>]>}"),
            std::string::npos)
      << printed;
}

TEST(ExportNamedComputationsDedupTest, WithoutTheOptionEachShardingGetsItsFunction) {
  std::string printed =
      exportDeduped(kHeader + baz("%0", "%arg0", "[{}, {\"y\"}]", "[{\"x\"}, {}]") +
                        baz("%1", "%arg0", "[{}, {\"y\"}]", "[{\"x\"}, {\"y\"}]") +
                        "  %2 = stablehlo.add %0, %1 : tensor<8x2xi32>\n"
                        "  return %2 : tensor<8x2xi32>\n}\n",
                    /*dedup=*/false);
  EXPECT_EQ(count(printed, "func.func private @baz"), 2u) << printed;
  EXPECT_EQ(count(printed, "mhlo.copy"), 0u) << printed;
}

TEST(ExportNamedComputationsTest, TakenNamesShareOneSuffixCounter) {
  // MLIR's symbol table numbers clashing names with one counter per pass: @bar, @bar_0, then
  // @foo, @foo_1 (XLA's `named_computations_with_manual_axes`).
  auto named = [](const std::string& result, const std::string& name, const std::string& arg) {
    return "  " + result + " = sdy.named_computation<\"" + name + "\">(" + arg + R"() (%a: tensor<8x2xi32>) {
    sdy.return %a : tensor<8x2xi32>
  } : (tensor<8x2xi32>) -> tensor<8x2xi32>
)";
  };
  std::string printed =
      exportDeduped(kHeader + named("%0", "bar", "%arg0") + named("%1", "bar", "%0") +
                        named("%2", "foo", "%1") + named("%3", "foo", "%2") +
                        "  return %3 : tensor<8x2xi32>\n}\n",
                    /*dedup=*/false);
  for (const char* callee : {"@bar(", "@bar_0(", "@foo(", "@foo_1("})
    EXPECT_NE(printed.find(std::string("call ") + callee), std::string::npos) << callee << printed;
  EXPECT_EQ(printed.find("@foo_0"), std::string::npos) << printed;
}

} // namespace
