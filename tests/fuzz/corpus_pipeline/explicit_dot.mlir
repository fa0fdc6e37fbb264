// dot_general under explicit sharding: batch and free dimensions keep their sharding; a
// contracting dimension sharded on one side is gathered; sharded on both sides JAX asks for the
// output sharding (`out_sharding`, here the op's own `sdy.sharding`), which may keep the
// partial sums unreduced.
module @dot attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>
  func.func @main(%lhs: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}]>},
                  %rhs: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"Y"}, {}]>},
                  %w: tensor<16x4xf32>) -> tensor<8x4xf32> {
    %gathered = stablehlo.dot_general %lhs, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %ambiguous = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %scattered = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"X"}, {"Y"}]>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %partial = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"X"}, {}], unreduced={"Y"}>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %summed = sdy.reshard %partial <@mesh, [{"X"}, {}]> : tensor<8x4xf32>
    return %summed : tensor<8x4xf32>
  }
}
