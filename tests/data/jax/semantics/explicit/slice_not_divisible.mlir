// jax jax/_src/lax/slicing.py::_get_sharding_for_varying_out_shape (JAX raises rather than pad an uneven explicit shard): slicing f32[8@X] to 3 elements leaves 3, not divisible by X's 2 devices.
// CLI-FAIL types: slicing on sharded dims where out dim (3) is not divisible by mesh axes (2) with spec (X) is not implemented. Got input type=f32[8@X] and output shape=(3,)
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=2]>
  func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}]>}) -> tensor<3xf32> {
    %s = stablehlo.slice %a [0:3] : (tensor<8xf32>) -> tensor<3xf32>
    return %s : tensor<3xf32>
  }
}
