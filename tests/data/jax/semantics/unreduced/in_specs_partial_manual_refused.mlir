// jax jax/_src/shard_map.py::_check_unreduced (NotImplementedError "unreduced/reduced can only be passed to in_specs when shard_map is in full manual mode"): an unreduced in_shardings entry on a computation manual over 'y' only, with 'x' free, is refused.
// CLI-FAIL check: unreduced/reduced can only be passed to in_specs when shard_map is in full manual mode. Got mesh axis names ('x', 'y'), manual_axes: frozenset({'y'})
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x"}>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y"}, {}], unreduced={"x"}>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"y"} (%a: tensor<4x4xf32>) {
    sdy.return %a : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
