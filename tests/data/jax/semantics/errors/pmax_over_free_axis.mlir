// jax jax/_src/lax/parallel.py::_psum_invariant_abstract_eval (pmax/pmin share psum's check: `_check_axis_names(axes, 'psum')`) and tests/shard_map_test.py::ShardMapTest::test_partial_auto_error_invalid_auto: a pmax whose groups run along the free axis 'j' of a computation manual over 'i' only is rejected with the psum wording.
// CLI-FAIL check: Found an unbound axis name: j. To fix this, please call psum under `jax.shard_map`.
sdy.mesh @mesh = <["i"=2, "j"=2]>
func.func @main(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {?}]>] out_shardings=[<@mesh, [{"i"}, {?}]>] manual_axes={"i"} (%a: tensor<2x4xf32>) {
    %1 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %t = stablehlo.maximum %p, %q : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    sdy.return %1 : tensor<2x4xf32>
  } : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
