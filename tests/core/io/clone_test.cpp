// Module::clone, checked through the printer: a clone prints like its original, shares no op or
// value with it, and changes to one leave the other alone.

#include "core/io/mlir/mlir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_set>

using namespace shardscope;

namespace {

std::unique_ptr<ir::Module> parse(const std::string& text) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  EXPECT_TRUE(module && !sink.hasErrors()) << text;
  return module;
}

// Every op and value reachable from `module`.
struct Contents {
  std::unordered_set<const ir::Operation*> ops;
  std::unordered_set<const ir::Value*> values;
};
Contents contentsOf(const ir::Module& module) {
  Contents contents;
  module.op().walk([&](const ir::Operation& op) {
    contents.ops.insert(&op);
    for (const auto& result : op.results())
      contents.values.insert(result.get());
    for (unsigned r = 0; r < op.numRegions(); ++r)
      for (const auto& block : op.region(r).blocks())
        for (const auto& argument : block->arguments())
          contents.values.insert(argument.get());
  });
  return contents;
}

const char* kNested = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%iter = %c, %acc = %arg0) : tensor<i32>, tensor<8x4xf32>
  cond {
    %lt = stablehlo.compare LT, %iter, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %m = sdy.manual_computation(%acc) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%local: tensor<4x4xf32>) {
      %s = sdy.all_reduce {"y"} %local out_sharding=<@mesh, [{}, {}]> : tensor<4x4xf32>
      sdy.return %s : tensor<4x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    stablehlo.return %iter, %m : tensor<i32>, tensor<8x4xf32>
  }
  return %w#1 : tensor<8x4xf32>
}
)";

} // namespace

TEST(CloneTest, PrintsLikeTheOriginalAndSharesNothing) {
  auto original = parse(kNested);
  ASSERT_TRUE(original);
  auto copy = original->clone();
  EXPECT_EQ(io::mlir::printModule(*copy), io::mlir::printModule(*original));

  Contents a = contentsOf(*original), b = contentsOf(*copy);
  EXPECT_EQ(a.ops.size(), b.ops.size());
  for (const ir::Operation* op : b.ops) {
    EXPECT_FALSE(a.ops.count(op));
    // Every operand of the copy is a value of the copy, and its use list names this op.
    for (unsigned i = 0; i < op->numOperands(); ++i) {
      const ir::Value* operand = op->operand(i);
      EXPECT_TRUE(b.values.count(operand)) << op->name();
      bool listed = false;
      for (const ir::Use& use : operand->uses())
        listed = listed || (use.user == op && use.index == i);
      EXPECT_TRUE(listed) << op->name();
    }
  }
  // Locations come along: the op at line 5 of the original is at line 5 of the copy.
  EXPECT_EQ(copy->lookupFunction("main")->loc().line, original->lookupFunction("main")->loc().line);
}

TEST(CloneTest, EditsStayInTheirModule) {
  auto original = parse(kNested);
  ASSERT_TRUE(original);
  std::string before = io::mlir::printModule(*original);
  auto copy = original->clone();
  ir::Block* body = ir::func::body(*copy->lookupFunction("main"));
  ir::Operation* constant = body->ops().front().get();
  constant->setAttr("mark", ir::Attribute::string("changed"));
  copy->lookupFunction("main")->setAttr("sym_name", ir::Attribute::string("renamed"));
  EXPECT_EQ(io::mlir::printModule(*original), before);
  EXPECT_NE(io::mlir::printModule(*copy), before);
  EXPECT_TRUE(original->lookupFunction("main"));
  EXPECT_FALSE(copy->lookupFunction("main"));
  copy.reset(); // destroying the copy leaves the original's use lists intact
  EXPECT_EQ(io::mlir::printModule(*original), before);
}

// Every test program prints the same after a clone.
TEST(CloneTest, RoundTripsTheTestPrograms) {
  int checked = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(SHARDSCOPE_TEST_DATA_DIR)) {
    if (entry.path().extension() != ".mlir" ||
        entry.path().string().find("/bad/") != std::string::npos)
      continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    support::CollectingSink sink;
    auto module = io::mlir::parseModule(text.str(), 1, sink);
    if (!module || sink.hasErrors())
      continue; // programs for error tests
    EXPECT_EQ(io::mlir::printModule(*module->clone()), io::mlir::printModule(*module))
        << entry.path();
    ++checked;
  }
  EXPECT_GT(checked, 20);
}
