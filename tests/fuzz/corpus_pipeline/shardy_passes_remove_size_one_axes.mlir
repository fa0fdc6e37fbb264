// Shardy: shardy/dialect/sdy/transforms/import/remove_size_one_axes.cc, removeSizeOneAxes.
// RUN: sdy_opt %s -split-input-file -sdy-remove-size-one-axes | FileCheck %s

sdy.mesh @mesh = <["one"=1, "two"=2]>

// Size-one axes leave dimension shardings, replicated and unreduced axes; a closed dimension
// left without axes loses its priority, an open one keeps it.
// CHECK-LABEL: func @dropped(
// CHECK-SAME:    %arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"two", ?}p1]>}
// CHECK-SAME:    %arg1: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"two"}>}
func.func @dropped(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"one"}p0, {"two", ?}p1]>},
                   %arg1: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], replicated={"one"}, unreduced={"two"}>}) -> tensor<4x4xf32> {
  // CHECK-NEXT: stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}p2, {}], replicated={"two"}>]>}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"one", ?}p2, {}], replicated={"two"}>]>} : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
