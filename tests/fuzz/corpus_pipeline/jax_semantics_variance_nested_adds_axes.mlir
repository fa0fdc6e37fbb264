// jax tests/shard_map_test.py::ShardMapTest::test_nested_partial_auto (a shard_map over 'j' inside one over 'i'): inside the inner body a value varies over both axes; the inner result goes back to varying over 'i' only.
// NUMPY: r[0] = 2 * a[0]
// CLI check: f32[2,2]{V:(i,j)}
// CLI check: diagnostics: none
sdy.mesh @mesh = <["i"=2, "j"=2]>
func.func @main(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {"j"}]>}) -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {"j"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {"j"}]>] out_shardings=[<@mesh, [{"i"}, {"j"}]>] manual_axes={"i"} (%a: tensor<2x4xf32>) {
    %1 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{}, {"j"}]>] out_shardings=[<@mesh, [{}, {"j"}]>] manual_axes={"j"} (%b: tensor<2x2xf32>) {
      %2 = stablehlo.add %b, %b : tensor<2x2xf32>
      sdy.return %2 : tensor<2x2xf32>
    } : (tensor<2x4xf32>) -> tensor<2x4xf32>
    sdy.return %1 : tensor<2x4xf32>
  } : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
