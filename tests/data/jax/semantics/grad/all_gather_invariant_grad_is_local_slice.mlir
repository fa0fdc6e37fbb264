// jax jax/_src/lax/parallel.py::_all_gather_invariant_transpose_rule (the cotangent of an invariant gather is sliced locally, no psum_scatter) and tests/shard_map_test.py::ShardMapTest::test_all_gather_invariant_basic: the gather's sum is returned with out_specs P(), so only the invariant reading is legal, and grad slices the device's block out of the replicated cotangent.
// NUMPY: r[0] = np.array(a[0].sum())
// CLI check: all_gather_invariant over 'x'
// CLI check: diagnostics: none
// CLI grad --wrt 0: stablehlo.dynamic_slice
// CLI-NOT grad --wrt 0: "stablehlo.reduce_scatter"(
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, []>] manual_axes={"x"} (%a: tensor<2xf32>) {
    %1 = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<8xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%1 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    sdy.return %s : tensor<f32>
  } : (tensor<8xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
