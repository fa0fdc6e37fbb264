// jax jax/_src/lax/slicing.py::_dynamic_slice_sharding_rule (`_get_sharding_for_varying_out_shape(out_shape, operand, 'dynamic_slice')`): a dynamic_slice that shortens only the unsharded dim keeps f32[8@X,...] as it is.
// NUMPY: r[0] = a[0][:, 1:3]
// CLI types: f32[8@X,2]
// CLI types: rejected by JAX: 0 ops
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=2]>
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>}) -> tensor<8x2xf32> {
    %i = stablehlo.constant dense<0> : tensor<i32>
    %j = stablehlo.constant dense<1> : tensor<i32>
    %s = stablehlo.dynamic_slice %a, %i, %j, sizes = [8, 2] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x2xf32>
    return %s : tensor<8x2xf32>
  }
}
