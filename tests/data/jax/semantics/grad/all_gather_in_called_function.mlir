// jax tests/shard_map_test.py::ShardMapTest::test_jit_inside_shard_map with jax/_src/lax/parallel.py::_all_gather_transpose_rule: an all_gather inside a nested jax.jit (a func.call in the manual body) is typed through the callee, and its transpose is a reduce_scatter there too.
// NUMPY: r[0] = np.tile(2 * a[0], 4)
// CLI check: all_gather over 'x'
// CLI check: diagnostics: none
// CLI transpose --linear-in 0: stablehlo.reduce_scatter
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
    %1 = func.call @gather(%a) : (tensor<2xf32>) -> tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}
func.func private @gather(%b: tensor<2xf32>) -> tensor<8xf32> {
  %g = "stablehlo.all_gather"(%b) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<8xf32>
  %d = stablehlo.add %g, %g : tensor<8xf32>
  return %d : tensor<8xf32>
}
