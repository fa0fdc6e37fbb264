// jax jax/_src/lax/lax.py::split_partitions (divmod(o, axis_size) leaves a remainder -> raise_reshape_error): f32[8@Y] with Y of size 4 cannot split into (2, 4), the first new dim being smaller than Y.
// CLI-FAIL types: This reshape is not supported. Please specify the sharding of the output via the `out_sharding` argument of jax.lax.reshape. Got operand type: float32[8@Y], new sizes: (2, 4)
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>
  func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"Y"}]>}) -> tensor<2x4xf32> {
    %s = stablehlo.reshape %a : (tensor<8xf32>) -> tensor<2x4xf32>
    return %s : tensor<2x4xf32>
  }
}
