// Debug locations as MLIR and JAX print them: every location form, aliases defined before and
// after use, and the labels `ir` derives from them. Expected labels are read off the input text.
#include "core/io/mlir/mlir.h"

#include "core/support/source_manager.h"

#include <gtest/gtest.h>

using namespace shardscope;

namespace {

std::unique_ptr<ir::Module> parse(const std::string& text, support::CollectingSink& sink) {
  return io::mlir::parseModule(text, 1, sink);
}

const ir::Operation* findOp(const ir::Module& module, std::string_view name) {
  const ir::Operation* found = nullptr;
  module.op().walk([&](const ir::Operation& op) {
    if (!found && op.is(name))
      found = &op;
  });
  return found;
}

// The shape of `jax.jit(f).lower(a, b).as_text()` with debug info, for f(a, b) = a * b: aliases
// before the module, the multiply's location used before its alias is defined, and JAX's name
// chain: a short `multiply:` around the full name path.
constexpr const char* kJaxExport = R"(
#loc1 = loc("a")
#loc2 = loc("b")
module @jit_scale attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3xf32> {mhlo.memory_kind = "device"} loc("a"), %arg1: tensor<3xf32> {mhlo.layout_mode = "default"} loc("b")) -> (tensor<3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<3xf32> loc(#loc5)
    return %0 : tensor<3xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("train.py":42:10)
#loc4 = loc("jit(scale)/mul"(#loc3))
#loc5 = loc("multiply:"(#loc4))
)";

} // namespace

TEST(LocationsTest, JaxExportWithForwardAliasesLoadsAndPrintsWithoutLocations) {
  support::CollectingSink sink;
  auto module = parse(kJaxExport, sink);
  ASSERT_TRUE(module) << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  // sdy_opt prints no locations (and MLIR omits the default `public`): the text is the same as
  // without them.
  EXPECT_EQ(io::mlir::printModule(*module),
            R"(module @jit_scale attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%arg0: tensor<3xf32> {mhlo.memory_kind = "device"}, %arg1: tensor<3xf32> {mhlo.layout_mode = "default"}) -> (tensor<3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<3xf32>
    return %0 : tensor<3xf32>
  }
}
)");
}

TEST(LocationsTest, KeepsTheJaxNameOfOpsAndArguments) {
  support::CollectingSink sink;
  auto module = parse(kJaxExport, sink);
  ASSERT_TRUE(module);
  const ir::Operation* mul = findOp(*module, "stablehlo.multiply");
  ASSERT_TRUE(mul);
  // `multiply:` wraps the full path; the innermost name of the chain is the one to show.
  EXPECT_EQ(module->jaxName(*mul), "jit(scale)/mul");
  EXPECT_EQ(module->debugLabel(*mul), "jit(scale)/mul");
  EXPECT_EQ(module->locations().str(mul->debugLoc()),
            R"(loc("multiply:"("jit(scale)/mul"("train.py":42:10))))");
  const ir::Block* body = ir::func::body(*module->functions()[0]);
  EXPECT_EQ(module->debugLabel(*body->argument(0)), "a");
  EXPECT_EQ(module->jaxName(*body->argument(1)), "b");
  EXPECT_EQ(module->jaxName(*mul->result(0)), "jit(scale)/mul");
  const ir::Operation* ret = findOp(*module, "func.return");
  // `loc(#loc)` with `#loc = loc(unknown)` defined after the module.
  EXPECT_EQ(module->locations().str(ret->debugLoc()), "loc(unknown)");
  EXPECT_EQ(module->debugLabel(*ret), "");
}

TEST(LocationsTest, ClonesKeepDebugLocations) {
  support::CollectingSink sink;
  auto module = parse(kJaxExport, sink);
  ASSERT_TRUE(module);
  auto copy = module->clone();
  EXPECT_EQ(copy->jaxName(*findOp(*copy, "stablehlo.multiply")), "jit(scale)/mul");
  EXPECT_EQ(copy->jaxName(*ir::func::body(*copy->functions()[0])->argument(0)), "a");
}

TEST(LocationsTest, ParsesEveryLocationForm) {
  support::CollectingSink sink;
  auto module = parse(R"(#loc9 = loc("f.py":3:1)
func.func @f(%arg0: tensor<4xf32> loc(unknown), %arg1: tensor<4xf32> loc("w"("f.py":1:2))) -> tensor<4xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32> loc("f.py":10:8 to 12:3)
  %1 = stablehlo.add %0, %0 : tensor<4xf32> loc("f.py":11:4 to :9)
  %2 = stablehlo.add %1, %1 : tensor<4xf32> loc(fused["a.py":1:1, "b"])
  %3 = stablehlo.add %2, %2 : tensor<4xf32> loc(fused<"tag">["c"("a.py":2:2), #loc9])
  %4 = stablehlo.add %3, %3 : tensor<4xf32> loc(callsite("inner"("a.py":5:6) at callsite("g.py":7:8 at #loc9)))
  %5 = stablehlo.add %4, %4 : tensor<4xf32> loc(#loc9)
  %6 = stablehlo.add %5, %5 : tensor<4xf32> loc(callsite(#loc9 at "h.py":1:1))
  return %6 : tensor<4xf32>
})",
                      sink);
  ASSERT_TRUE(module) << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  const ir::LocationTable& table = module->locations();
  std::vector<const ir::Operation*> adds;
  module->op().walk([&](const ir::Operation& op) {
    if (op.is("stablehlo.add"))
      adds.push_back(&op);
  });
  ASSERT_EQ(adds.size(), 7u);
  EXPECT_EQ(table.str(adds[0]->debugLoc()), R"(loc("f.py":10:8 to 12:3))");
  EXPECT_EQ(table.str(adds[1]->debugLoc()), R"(loc("f.py":11:4 to :9))");
  EXPECT_EQ(table.str(adds[2]->debugLoc()), R"(loc(fused["a.py":1:1, "b"]))");
  EXPECT_EQ(table.str(adds[3]->debugLoc()), R"(loc(fused<"tag">["c"("a.py":2:2), "f.py":3:1]))");
  EXPECT_EQ(table.str(adds[4]->debugLoc()),
            R"(loc(callsite("inner"("a.py":5:6) at callsite("g.py":7:8 at "f.py":3:1))))");
  EXPECT_EQ(table.str(adds[5]->debugLoc()), R"(loc("f.py":3:1))");

  // Labels: a name when there is one (fused: the first named part), else the first file:line,
  // callee before caller. A call-site frame's name is a function name, not an op name.
  EXPECT_EQ(table.label(adds[0]->debugLoc()), "f.py:10");
  EXPECT_EQ(table.label(adds[2]->debugLoc()), "b");
  EXPECT_EQ(table.label(adds[3]->debugLoc()), "c");
  EXPECT_EQ(table.label(adds[4]->debugLoc()), "a.py:5");
  EXPECT_EQ(table.label(adds[6]->debugLoc()), "f.py:3");

  const ir::Block* body = ir::func::body(*module->functions()[0]);
  EXPECT_EQ(body->argument(0)->debugLoc(), ir::kUnknownLoc);
  EXPECT_EQ(table.str(body->argument(1)->debugLoc()), R"(loc("w"("f.py":1:2)))");
}

TEST(LocationsTest, BlockArgumentsOfRegionsKeepLocations) {
  support::CollectingSink sink;
  auto module = parse(R"(func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32> loc("lhs"), %b: tensor<f32> loc("rhs"))  {
    %1 = stablehlo.add %a, %b : tensor<f32> loc("jit(f)/jit(main)/reduce_sum"("f.py":2:3))
    stablehlo.return %1 : tensor<f32>
  } loc("jit(f)/jit(main)/reduce_sum"("f.py":2:3))
  return %0 : tensor<f32>
})",
                      sink);
  ASSERT_TRUE(module) << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  const ir::Operation* reduce = findOp(*module, "stablehlo.reduce");
  ASSERT_TRUE(reduce);
  EXPECT_EQ(module->jaxName(*reduce), "jit(f)/jit(main)/reduce_sum");
  const ir::Block& reducer = reduce->region(0).front();
  EXPECT_EQ(module->debugLabel(*reducer.argument(0)), "lhs");
  EXPECT_EQ(module->debugLabel(*reducer.argument(1)), "rhs");
}

TEST(LocationsTest, AliasesOfAttributesAndTypesAnywhereAtTopLevel) {
  support::CollectingSink sink;
  auto module = parse(R"(#sharding = #sdy.sharding<@mesh, [{"x"}, {}]>
!t = tensor<8x16xf32>
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: !t {sdy.sharding = #sharding}) -> !t {
    %0 = stablehlo.negate %arg0 : !t loc(#loc1)
    return %0 : !t
  }
}
#loc1 = loc("jit(main)/neg"("f.py":1:1))
)",
                      sink);
  ASSERT_TRUE(module) << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  EXPECT_EQ(io::mlir::printModule(*module), R"(module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
    %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
)");
  EXPECT_EQ(module->jaxName(*findOp(*module, "stablehlo.negate")), "jit(main)/neg");
}

TEST(LocationsTest, UndefinedLocationAliasIsALocatedError) {
  support::CollectingSink sink;
  auto module = parse("func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n"
                      "  %0 = stablehlo.negate %arg0 : tensor<f32> loc(#loc7)\n"
                      "  return %0 : tensor<f32>\n"
                      "}\n",
                      sink);
  EXPECT_FALSE(module);
  ASSERT_TRUE(sink.hasErrors());
  EXPECT_EQ(sink.diagnostics()[0].message, "operation location alias 'loc7' was never defined");
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 2u);
  EXPECT_EQ(sink.diagnostics()[0].loc.column, 49u);
}

TEST(LocationsTest, MalformedLocationsAreLocatedErrors) {
  for (const char* bad : {R"(loc("f.py":1))", R"(loc(callsite("a" "b")))", R"(loc(fused["a")",
                          R"(loc(bogus))", R"(loc("a"("b"))"}) {
    support::CollectingSink sink;
    std::string text = std::string("func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n"
                                   "  %0 = stablehlo.negate %arg0 : tensor<f32> ") +
                       bad + "\n  return %0 : tensor<f32>\n}\n";
    EXPECT_FALSE(parse(text, sink)) << bad;
    ASSERT_TRUE(sink.hasErrors()) << bad;
    // Unclosed ones are reported where the text goes on (the next line).
    EXPECT_GE(sink.diagnostics()[0].loc.line, 2u) << bad << ": " << sink.diagnostics()[0].message;
    EXPECT_LE(sink.diagnostics()[0].loc.line, 3u) << bad << ": " << sink.diagnostics()[0].message;
  }
}

TEST(LocationsTest, SelfReferentialAliasesDoNotHang) {
  support::CollectingSink sink;
  auto module = parse(R"(func.func @f(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.negate %arg0 : tensor<f32> loc(#loc1)
  return %0 : tensor<f32>
}
#loc1 = loc("a"(#loc2))
#loc2 = loc("b"(#loc1))
)",
                      sink);
  ASSERT_TRUE(module);
  const ir::Operation* neg = findOp(*module, "stablehlo.negate");
  // Whatever the label is, computing it terminates.
  (void)module->debugLabel(*neg);
  (void)module->locations().str(neg->debugLoc());
  (void)module->locations().fileLine(neg->debugLoc());
}
