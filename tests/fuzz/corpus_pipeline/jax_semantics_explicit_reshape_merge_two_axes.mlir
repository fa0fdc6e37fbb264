// jax jax/_src/lax/lax.py::_merge_an_axis_sharding_rule: f32[2@X,4@Y] merged to (8,) keeps both axes on the merged dim, major first: f32[8@(X,Y)].
// CLI types: f32[8@(X,Y)]
// CLI types: rejected by JAX: 0 ops
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>
  func.func @main(%a: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}]>}) -> tensor<8xf32> {
    %s = stablehlo.reshape %a : (tensor<2x4xf32>) -> tensor<8xf32>
    return %s : tensor<8xf32>
  }
}
