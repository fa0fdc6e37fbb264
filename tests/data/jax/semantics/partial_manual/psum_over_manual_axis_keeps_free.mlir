// jax tests/shard_map_test.py::ShardMapTest::test_partial_auto (psum over the manual axis 'i' is allowed; 'j' stays automatic): the psum makes the value invariant over 'i' and the free axis 'j' still shards dim 1 of the result.
// NUMPY: r[0] = a[0][0:2] + a[0][2:4]
// CLI check: psum over 'i'
// CLI check: out  %1     f32[2,8@j]       P(None, 'j')
// CLI check: diagnostics: none
sdy.mesh @mesh = <["i"=2, "j"=2]>
func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {"j"}]>}) -> (tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"j"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {"j"}]>] out_shardings=[<@mesh, [{}, {"j"}]>] manual_axes={"i"} (%a: tensor<2x8xf32>) {
    %1 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %t = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) : (tensor<2x8xf32>) -> tensor<2x8xf32>
    sdy.return %1 : tensor<2x8xf32>
  } : (tensor<4x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
