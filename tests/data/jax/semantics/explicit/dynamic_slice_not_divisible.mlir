// jax jax/_src/lax/slicing.py::_dynamic_slice_sharding_rule via _get_sharding_for_varying_out_shape: a dynamic_slice of 3 rows out of f32[8@X,4] would be uneven over X's 2 devices, so JAX raises.
// CLI-FAIL types: dynamic_slice on sharded dims where out dim (3) is not divisible by mesh axes (2) with spec (X) is not implemented. Got input type=f32[8@X,4] and output shape=(3, 4)
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=2]>
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>}) -> tensor<3x4xf32> {
    %i = stablehlo.constant dense<2> : tensor<i32>
    %j = stablehlo.constant dense<0> : tensor<i32>
    %s = stablehlo.dynamic_slice %a, %i, %j, sizes = [3, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
    return %s : tensor<3x4xf32>
  }
}
