// jax jax/_src/lax/parallel.py::_all_gather_effectful_abstract_eval (`_check_axis_names(axis_name, 'all_gather')`): an all_gather along the free axis 'j' of a computation manual over 'i' only names an axis not bound there.
// CLI-FAIL check: Found an unbound axis name: j. To fix this, please call all_gather under `jax.shard_map`.
sdy.mesh @mesh = <["i"=2, "j"=2]>
func.func @main(%arg0: tensor<4x4xf32>) -> tensor<4x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {?}]>] out_shardings=[<@mesh, [{"i"}, {?}]>] manual_axes={"i"} (%a: tensor<2x4xf32>) {
    %1 = "stablehlo.all_gather"(%a) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<2x4xf32>) -> tensor<2x8xf32>
    sdy.return %1 : tensor<2x8xf32>
  } : (tensor<4x4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
