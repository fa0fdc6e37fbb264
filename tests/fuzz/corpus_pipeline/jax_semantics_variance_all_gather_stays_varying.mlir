// jax tests/shard_map_test.py::ShardMapTest::test_all_gather (all_gather(x, 'x', tiled=True) with out_specs=P('x')): the output names 'x', so the varying reading is consistent and stays; its transpose is a psum_scatter.
// NUMPY: r[0] = np.tile(a[0], 4)
// CLI check: all_gather over 'x'
// CLI-NOT check: all_gather_invariant
// CLI transpose --linear-in 0: "stablehlo.reduce_scatter"(
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
    %1 = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}
