// jax jax/_src/lax/lax.py::_reduce_op_sharding_rule_with_out_sharding (without out_sharding the result spec drops the reduced dims: `s for i, s in enumerate(spec) if i not in axes`): summing f32[8@X,4@Y] over dim 1 is f32[8@X]; the sum over Y is completed, not left pending.
// NUMPY: r[0] = a[0].sum(axis=1)
// CLI types: f32[8@X]
// CLI-NOT types: {U:
// CLI types: rejected by JAX: 0 ops
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=2]>
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}]>}) -> tensor<8xf32> {
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
    return %s : tensor<8xf32>
  }
}
