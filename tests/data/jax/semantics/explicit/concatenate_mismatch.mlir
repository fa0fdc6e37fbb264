// jax jax/_src/lax/lax.py::_concatenate_sharding_rule ("All operands should have the same sharding. Got shardings ..."): concatenating f32[8@X,4] with f32[8@Y,4] is a ShardingTypeError.
// CLI-FAIL types: All operands should have the same sharding. Got shardings NamedSharding(mesh=AbstractMesh('X': 2, 'Y': 2, axis_types=(Explicit, Explicit)), spec=P('X', None)), NamedSharding(mesh=AbstractMesh('X': 2, 'Y': 2, axis_types=(Explicit, Explicit)), spec=P('Y', None))
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=2]>
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                  %b: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"Y"}, {}]>}) -> tensor<16x4xf32> {
    %c = stablehlo.concatenate %a, %b, dim = 0 : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
    return %c : tensor<16x4xf32>
  }
}
