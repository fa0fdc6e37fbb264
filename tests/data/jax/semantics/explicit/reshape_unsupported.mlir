// jax jax/_src/lax/lax.py::_reshape_sharding_rule and raise_reshape_error: (8, 4) -> (4, 8) neither splits nor merges one dim, so a sharded operand makes JAX ask for an out_sharding.
// CLI-FAIL types: This reshape is not supported. Please specify the sharding of the output via the `out_sharding` argument of jax.lax.reshape. Got operand type: float32[8@X,4@Y], new sizes: (4, 8)
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=2]>
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}]>}) -> tensor<4x8xf32> {
    %s = stablehlo.reshape %a : (tensor<8x4xf32>) -> tensor<4x8xf32>
    return %s : tensor<4x8xf32>
  }
}
