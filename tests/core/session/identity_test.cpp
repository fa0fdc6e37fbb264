// The stable ids of ops and values: written as the views and the serve client read them, parsed
// back, found in every stage of a program.
#include "core/io/mlir/mlir.h"
#include "core/session/identity.h"
#include "core/session/program.h"

#include <gtest/gtest.h>

using namespace shardscope;
using namespace shardscope::session;

namespace {

// An op is located where its text starts, at its results (as MLIR locates ops): the manual
// computation at line 4 column 3, the multiply inside it at 5:5, the add at 8:3 (counted by hand
// in the text below).
constexpr const char* kProgram = R"(sdy.mesh @mesh = <["x"=2]>

func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %m = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%blk: tensor<4xf32>) {
    %sq = stablehlo.multiply %blk, %blk : tensor<4xf32>
    sdy.return %sq : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %s = stablehlo.add %m, %b : tensor<8xf32>
  return %s : tensor<8xf32>
}
)";

} // namespace

TEST(IdentityTest, IdsNameOpsResultsAndArgumentsAndParseBack) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(kProgram, 1, sink);
  ASSERT_TRUE(module);
  const ir::Operation* fn = module->lookupFunction("main");
  ASSERT_TRUE(fn);
  const ir::Block* body = ir::func::body(*fn);
  const ir::Operation* manual = body->ops().front().get();
  const ir::Operation* add = std::next(body->ops().begin())->get();
  const ir::Operation* multiply = manual->region(0).front().ops().front().get();

  EXPECT_EQ(opId(*manual), "4:3:sdy.manual_computation");
  EXPECT_EQ(opId(*add), "8:3:stablehlo.add");
  EXPECT_EQ(valueId(*add->result(0)), "8:3:stablehlo.add#0");
  EXPECT_EQ(valueId(*multiply->result(0)), "5:5:stablehlo.multiply#0");
  EXPECT_EQ(valueId(*body->argument(1)), "arg:main#1");
  EXPECT_EQ(valueId(*manual->region(0).front().argument(0)), "4:3:sdy.manual_computation@0.0");

  // Every id finds its value again.
  for (const ir::Value* v : {static_cast<const ir::Value*>(add->result(0)),
                             static_cast<const ir::Value*>(multiply->result(0)),
                             static_cast<const ir::Value*>(body->argument(0)),
                             static_cast<const ir::Value*>(body->argument(1)),
                             static_cast<const ir::Value*>(manual->region(0).front().argument(0))})
    EXPECT_EQ(findValue(*module, valueId(*v)), v) << valueId(*v);

  std::optional<ValueIdParts> parts = parseValueId("4:3:sdy.manual_computation@0.0");
  ASSERT_TRUE(parts);
  EXPECT_EQ(parts->kind, ValueIdParts::Kind::RegionArgument);
  EXPECT_EQ(parts->line, 4u);
  EXPECT_EQ(parts->column, 3u);
  EXPECT_EQ(parts->opName, "sdy.manual_computation");
  EXPECT_EQ(parts->region, 0u);
  EXPECT_EQ(parts->index, 0u);
  parts = parseValueId("arg:main#1");
  ASSERT_TRUE(parts);
  EXPECT_EQ(parts->kind, ValueIdParts::Kind::FunctionArgument);
  EXPECT_EQ(parts->function, "main");
  EXPECT_EQ(parts->index, 1u);

  // Not ids, or ids of nothing.
  for (const char* bad : {"", "%s", "arg:#1", "arg:main#", "arg:main#x", "8:3:stablehlo.add",
                          "8:3#0", "x:3:stablehlo.add#0", "8:3:stablehlo.add#-1",
                          "4:3:sdy.manual_computation@0", "4:3:sdy.manual_computation@a.0"})
    EXPECT_FALSE(parseValueId(bad)) << bad;
  EXPECT_EQ(findValue(*module, "8:3:stablehlo.add#1"), nullptr);  // one result only
  EXPECT_EQ(findValue(*module, "8:3:stablehlo.tanh#0"), nullptr); // another op there
  EXPECT_EQ(findValue(*module, "arg:main#2"), nullptr);
  EXPECT_EQ(findValue(*module, "arg:other#0"), nullptr);
}

TEST(IdentityTest, AValueHasOneIdInEveryStage) {
  support::CollectingSink sink;
  auto program = Program::fromText("ids.mlir", kProgram, sink);
  ASSERT_TRUE(program);
  // The add and the second argument, found by their ids in each stage, are the same source
  // values: the add keeps its location through propagation and partitioning.
  for (Stage stage : kStages) {
    const ir::Module* module = program->stage(stage, sink);
    ASSERT_TRUE(module) << stageName(stage);
    const ir::Value* sum = findValue(*module, "8:3:stablehlo.add#0");
    ASSERT_TRUE(sum) << stageName(stage);
    EXPECT_TRUE(sum->definingOp()->is("stablehlo.add"));
    EXPECT_EQ(valueId(*sum), "8:3:stablehlo.add#0");
    ASSERT_TRUE(findValue(*module, "arg:main#1")) << stageName(stage);
  }
}
