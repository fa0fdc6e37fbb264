// jax tests/shard_map_test.py::ShardMapTest::test_partial_auto (shard_map manual over 'i' only, axis_names={'i'}; 'j' stays automatic): the free axis 'j' keeps sharding dim 1 inside the body and outside, in every notation.
// NUMPY: r[0] = np.sin(a[0])
// CLI check: in   %arg1  f32[2,8@j]{V:i}  P('i', 'j')
// CLI check: P('i', 'j')
// CLI check: diagnostics: none
sdy.mesh @mesh = <["i"=2, "j"=2]>
func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {"j"}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {"j"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {"j"}]>] out_shardings=[<@mesh, [{"i"}, {"j"}]>] manual_axes={"i"} (%a: tensor<2x8xf32>) {
    %1 = stablehlo.sine %a : tensor<2x8xf32>
    sdy.return %1 : tensor<2x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
