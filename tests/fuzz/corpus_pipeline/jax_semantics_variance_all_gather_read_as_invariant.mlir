// jax tests/shard_map_test.py::ShardMapTest::test_all_gather_invariant_basic: all_gather(a, 'x', tiled=True, to='invarying') with out_specs=P() lowers to a plain stablehlo.all_gather; the out_specs only allow the invariant reading, so no replication error and the transpose is a local slice (pscatter), not a psum_scatter.
// NUMPY: r[0] = a[0]
// CLI check: all_gather_invariant over 'x'
// CLI check: diagnostics: none
// CLI transpose --linear-in 0: stablehlo.dynamic_slice
// CLI-NOT transpose --linear-in 0: "stablehlo.reduce_scatter"(
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
    %1 = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
