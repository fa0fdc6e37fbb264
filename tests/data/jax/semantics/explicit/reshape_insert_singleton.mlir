// jax jax/_src/lax/lax.py::_split_merge_singleton_dim_sharding_rule (when only size-1 dims differ, the non-1 dims keep their specs in order and every size-1 dim gets None): f32[8@X,4@Y] reshaped to (8, 1, 4) is f32[8@X,1,4@Y].
// NUMPY: r[0] = a[0].reshape(8, 1, 4)
// CLI types: f32[8@X,1,4@Y]
// CLI types: rejected by JAX: 0 ops
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=2]>
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}]>}) -> tensor<8x1x4xf32> {
    %s = stablehlo.reshape %a : (tensor<8x4xf32>) -> tensor<8x1x4xf32>
    return %s : tensor<8x1x4xf32>
  }
}
