// jax jax/_src/lax/lax.py::_reshape_sharding_rule: an operand with no sharded dim reshapes to an unsharded result, whatever the sizes.
// CLI types: %s  f32[3,8]
// CLI types: rejected by JAX: 0 ops
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2]>
  func.func @main(%a: tensor<4x6xf32>) -> tensor<3x8xf32> {
    %s = stablehlo.reshape %a : (tensor<4x6xf32>) -> tensor<3x8xf32>
    return %s : tensor<3x8xf32>
  }
}
