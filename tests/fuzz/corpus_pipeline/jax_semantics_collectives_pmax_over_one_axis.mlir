// jax tests/shard_map_test.py::ShardMapTest::test_pmax (pmax over 'j' on a (2, 2) mesh with in_specs=P('i', 'j'), out_specs=P('i', None)): the maximum over 'j' is invariant over 'j', still varying over 'i'.
// NUMPY: r[0] = np.maximum(a[0][:, :2], a[0][:, 2:])
// CLI check: pmax over 'j'
// CLI check: diagnostics: none
sdy.mesh @mesh = <["i"=2, "j"=2]>
func.func @main(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {"j"}]>}) -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {"j"}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i", "j"} (%a: tensor<2x2xf32>) {
    %1 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %t = stablehlo.maximum %p, %q : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) : (tensor<2x2xf32>) -> tensor<2x2xf32>
    sdy.return %1 : tensor<2x2xf32>
  } : (tensor<4x4xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
