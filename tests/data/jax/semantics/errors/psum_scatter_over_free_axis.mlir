// jax jax/_src/lax/parallel.py::_reduce_scatter_effectful_abstract_eval (`_check_axis_names(axis_name, 'reduce_scatter')`): psum_scatter binds reduce_scatter_p, so a psum_scatter along the free axis 'j' of a computation manual over 'i' only is rejected naming reduce_scatter.
// CLI-FAIL check: Found an unbound axis name: j. To fix this, please call reduce_scatter under `jax.shard_map`.
sdy.mesh @mesh = <["i"=2, "j"=2]>
func.func @main(%arg0: tensor<4x4xf32>) -> tensor<4x2xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {?}]>] out_shardings=[<@mesh, [{"i"}, {?}]>] manual_axes={"i"} (%a: tensor<2x4xf32>) {
    %1 = "stablehlo.reduce_scatter"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %t = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) : (tensor<2x4xf32>) -> tensor<2x2xf32>
    sdy.return %1 : tensor<2x2xf32>
  } : (tensor<4x4xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
