// jax jax/_src/lax/parallel.py::_raise_to_shaped_abstract_eval of ppermute (`_check_axis_names(axis_name, 'ppermute')`): a ppermute whose pairs swap neighbours along the free axis 'j' of a computation manual over 'i' only names an axis not bound there.
// CLI-FAIL check: Found an unbound axis name: j. To fix this, please call ppermute under `jax.shard_map`.
sdy.mesh @mesh = <["i"=2, "j"=2]>
func.func @main(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {?}]>] out_shardings=[<@mesh, [{"i"}, {?}]>] manual_axes={"i"} (%a: tensor<2x4xf32>) {
    %1 = "stablehlo.collective_permute"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0], [2, 3], [3, 2]]> : tensor<4x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
    sdy.return %1 : tensor<2x4xf32>
  } : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
