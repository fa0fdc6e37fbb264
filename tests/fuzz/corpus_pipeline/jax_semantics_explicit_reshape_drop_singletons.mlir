// jax jax/_src/lax/lax.py::_split_merge_singleton_dim_sharding_rule: size-1 dims come and go; f32[1,8@X,1] reshaped to (8, 1) keeps X on the 8 and leaves the new singleton unsharded.
// CLI types: f32[8@X,1]
// CLI types: rejected by JAX: 0 ops
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>
  func.func @main(%a: tensor<1x8x1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"X"}, {}]>}) -> tensor<8x1xf32> {
    %s = stablehlo.reshape %a : (tensor<1x8x1xf32>) -> tensor<8x1xf32>
    return %s : tensor<8x1xf32>
  }
}
