// jax jax/_src/lax/lax.py::_concatenate_sharding_rule (all operands must share one sharding, which the result keeps, the concatenated dim included): two f32[8@X,4] joined along dim 0 give f32[16@X,4].
// NUMPY: r[0] = np.concatenate([a[0], a[1]], axis=0)
// CLI types: f32[16@X,4]
// CLI types: rejected by JAX: 0 ops
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=2]>
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                  %b: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>}) -> tensor<16x4xf32> {
    %c = stablehlo.concatenate %a, %b, dim = 0 : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
    return %c : tensor<16x4xf32>
  }
}
