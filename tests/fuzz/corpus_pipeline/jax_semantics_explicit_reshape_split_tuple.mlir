// jax jax/_src/lax/lax.py::_split_an_axis_sharding_rule / split_partitions: f32[8@(X,Y)] reshaped to (2, 4) hands X (size 2) to the first new dim and Y (size 4) to the second.
// CLI types: f32[2@X,4@Y]
// CLI types: rejected by JAX: 0 ops
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>
  func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X", "Y"}]>}) -> tensor<2x4xf32> {
    %s = stablehlo.reshape %a : (tensor<8xf32>) -> tensor<2x4xf32>
    return %s : tensor<2x4xf32>
  }
}
