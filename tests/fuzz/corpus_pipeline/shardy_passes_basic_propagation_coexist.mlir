// Shardy: shardy/dialect/sdy/ir/dialect.cc, AxisRefAttr::canCoexist and getPrefixWithoutOverlap,
// as basic_factor_propagation.cc uses them.
// RUN: sdy_opt %s -split-input-file -sdy-basic-propagate | FileCheck %s

sdy.mesh @mesh = <["x"=12]>

// "x":(1)3 covers [1, 3) and "x":(4)3 covers [4, 12) of "x": the gap [3, 4) is no sub-axis, so
// the two can't both shard one tensor. The operand's sub-axis is not propagated to the result,
// which keeps the one its use gives it.
// CHECK-LABEL: func @cannot_coexist
func.func @cannot_coexist(%arg0: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)3}, {}]>})
    -> (tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x":(4)3}]>}) {
  // CHECK-NEXT: stablehlo.cosine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x":(4)3, ?}]>]>}
  %0 = stablehlo.cosine %arg0 : tensor<6x6xf32>
  return %0 : tensor<6x6xf32>
}

// -----

sdy.mesh @mesh = <["x"=12]>

// "x":(1)3 and "x":(3)4 are adjacent (12 = 3 x 4): both propagate.
// CHECK-LABEL: func @can_coexist
func.func @can_coexist(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)3}, {}]>})
    -> (tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x":(3)4}]>}) {
  // CHECK-NEXT: stablehlo.cosine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)3, ?}, {"x":(3)4, ?}]>]>}
  %0 = stablehlo.cosine %arg0 : tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}
