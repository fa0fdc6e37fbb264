// jax tests/shard_map_test.py::ShardMapTest::test_reduce_scatter (psum_scatter(x, 'x', scatter_dimension=0, tiled=True) of a replicated input): device i keeps slice i of the sum of the four copies.
// NUMPY: r[0] = 4 * a[0]
// CLI check: psum_scatter over 'x'
// CLI check: diagnostics: none
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<8xf32>) {
    %1 = "stablehlo.reduce_scatter"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %t = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
