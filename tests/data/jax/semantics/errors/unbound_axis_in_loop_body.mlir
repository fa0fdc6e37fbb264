// jax jax/_src/lax/parallel.py::_check_axis_names, reached from a psum traced inside a fori_loop body (tests/shard_map_test.py::ShardMapTest::test_partial_auto_error_invalid_auto, in a loop): the loop body is in the same shard_map context, so a psum along the free axis 'j' is still rejected there.
// CLI-FAIL check: Found an unbound axis name: j. To fix this, please call psum under `jax.shard_map`.
sdy.mesh @mesh = <["i"=2, "j"=2]>
func.func @main(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {?}]>] out_shardings=[<@mesh, [{"i"}, {?}]>] manual_axes={"i"} (%a: tensor<2x4xf32>) {
    %i0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%k = %i0, %x = %a) : tensor<i32>, tensor<2x4xf32>
     cond {
      %n = stablehlo.constant dense<2> : tensor<i32>
      %c = stablehlo.compare LT, %k, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %k1 = stablehlo.add %k, %one : tensor<i32>
      %s = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %t = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %t : tensor<f32>
      }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
      stablehlo.return %k1, %s : tensor<i32>, tensor<2x4xf32>
    }
    sdy.return %r#1 : tensor<2x4xf32>
  } : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
