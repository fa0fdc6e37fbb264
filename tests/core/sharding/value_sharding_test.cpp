#include "core/sharding/value_sharding.h"

#include "core/io/mlir/mlir.h"
#include "core/ir/attribute.h"

#include <gtest/gtest.h>

using namespace shardscope;

namespace {
std::string shardingText(const std::optional<ir::TensorSharding>& s) {
  return s ? ir::Attribute::sharding(*s).str() : std::string("none");
}
} // namespace

TEST(ValueShardingTest, FindsShardingsWhereverShardyKeepsThem) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
    %3 = stablehlo.negate %arg1 : tensor<4x8xf32>
    sdy.return %3 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
})",
                                      1, sink);
  ASSERT_TRUE(module);
  ir::Block* body = ir::func::body(*module->lookupFunction("f"));
  std::vector<ir::Operation*> ops;
  for (auto& op : body->ops())
    ops.push_back(op.get());
  EXPECT_EQ(shardingText(sharding::valueSharding(*body->argument(0))),
            "#sdy.sharding<@mesh, [{\"x\"}, {}]>");
  EXPECT_EQ(shardingText(sharding::valueSharding(*ops[0]->result(0))),
            "#sdy.sharding<@mesh, [{}, {}]>");
  EXPECT_EQ(shardingText(sharding::valueSharding(*ops[1]->result(0))),
            "#sdy.sharding<@mesh, [{}, {\"y\"}]>");
  EXPECT_EQ(shardingText(sharding::valueSharding(*ops[2]->result(0))),
            "#sdy.sharding<@mesh, [{\"x\"}, {}]>");
  // Inside the body the manual axis "x" is gone: the body sees its block split only by "y".
  const ir::Block& inner = ops[2]->region(0).front();
  EXPECT_EQ(shardingText(sharding::valueSharding(*inner.argument(0))),
            "#sdy.sharding<@mesh, [{\"y\"}, {}]>");
  EXPECT_EQ(shardingText(sharding::valueSharding(*inner.ops().front()->result(0))), "none");
}

TEST(ValueShardingTest, HeldShardingAddsTheAxesAnAllReduceWillReduce) {
  // The dot's sharding says rows on x; its users all-reduce over y, so every device holds a
  // partial sum until then: the data's layout has y as an unreduced axis.
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %b: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
})",
                                      1, sink);
  ASSERT_TRUE(module);
  ir::Block* body = ir::func::body(*module->lookupFunction("f"));
  const ir::Operation& dot = *body->ops().front();
  EXPECT_EQ(shardingText(sharding::valueSharding(*dot.result(0))),
            R"(#sdy.sharding<@mesh, [{"x"}, {}]>)");
  EXPECT_EQ(shardingText(sharding::heldSharding(*dot.result(0))),
            R"(#sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>)");
  // After the reduction the value is whole again.
  const ir::Operation& reduce = **std::next(body->ops().begin());
  EXPECT_EQ(shardingText(sharding::heldSharding(*reduce.result(0))),
            R"(#sdy.sharding<@mesh, [{"x"}, {}]>)");
}
