// jax jax/_src/shard_map.py::_check_unreduced (the out_specs side: "unreduced/reduced can only be passed to out_specs when shard_map is in full manual mode"): a computation manual over 'x' only, 'y' free, whose out_shardings leave the sum over 'x' pending is refused.
// CLI-FAIL check: unreduced/reduced can only be passed to out_specs when shard_map is in full manual mode. Got mesh axis names ('x', 'y'), manual_axes: frozenset({'x'})
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {"x"}]>] out_shardings=[<@mesh, [{}, {}], unreduced={"x"}>] manual_axes={"x"} (%a: tensor<8x2xf32>) {
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %p = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x2xf32>, tensor<f32>) -> tensor<8xf32>
    %b = stablehlo.broadcast_in_dim %p, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
    sdy.return %b : tensor<8x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
