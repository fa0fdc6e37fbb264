// jax jax/_src/lax/lax.py::_transpose_sharding_rule (result spec is the operand spec permuted: `operand.sharding.spec[i] for i in permutation`): f32[8@X,4@Y] transposed is f32[4@Y,8@X], no communication.
// NUMPY: r[0] = a[0].T
// CLI types: f32[4@Y,8@X]
// CLI types: rejected by JAX: 0 ops
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=2]>
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}]>}) -> tensor<4x8xf32> {
    %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
    return %t : tensor<4x8xf32>
  }
}
