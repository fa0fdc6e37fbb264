// jax jax/_src/lax/parallel.py::_check_axis_names, reached through a nested jax.jit (tests/shard_map_test.py::ShardMapTest::test_jit_inside_shard_map lowers it to a func.call): the callee runs in the caller's shard_map context, so its psum along the free axis 'j' is rejected, located at the psum.
// CLI-FAIL check: Found an unbound axis name: j. To fix this, please call psum under `jax.shard_map`.
sdy.mesh @mesh = <["i"=2, "j"=2]>
func.func @main(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {?}]>] out_shardings=[<@mesh, [{"i"}, {?}]>] manual_axes={"i"} (%a: tensor<2x4xf32>) {
    %1 = func.call @inner(%a) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    sdy.return %1 : tensor<2x4xf32>
  } : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
func.func private @inner(%b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %s = "stablehlo.all_reduce"(%b) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}
