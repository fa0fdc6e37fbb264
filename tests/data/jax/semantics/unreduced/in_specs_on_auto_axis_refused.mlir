// jax jax/_src/shard_map.py::_check_unreduced (ValueError "unreduced in in_specs ... can only be used when the mesh passed to shard_map contains axis names all of type `Explicit`"): the module declares 'x' Auto, so an in_shardings entry unreduced over 'x' is refused.
// CLI-FAIL check: unreduced in in_specs P(None, unreduced={'x'}) can only be used when the mesh passed to shard_map contains axis names all of type `Explicit`. Got mesh Mesh('x': 2, axis_types=(Auto,))
module @m attributes {shardscope.axis_types = {mesh = {x = "auto"}}} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}], unreduced={"x"}>] out_shardings=[<@mesh, [{}], unreduced={"x"}>] manual_axes={"x"} (%a: tensor<8xf32>) {
      sdy.return %a : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
