// jax tests/shard_map_test.py::ShardMapTest::test_partial_auto_explicit (shard_map manual over 'i' on a mesh whose 'j' is Explicit): the free explicit axis 'j' types the body's values and, by _unshard_shaped_array, the result, f32[2,8@j] inside and f32[4,8@j] outside.
// NUMPY: r[0] = 2 * a[0]
// CLI types --explicit-axes=j: %1  f32[2,8@j]  stablehlo.add
// CLI types --explicit-axes=j: #0  f32[4,8@j]
// CLI types --explicit-axes=j: rejected by JAX: 0 ops
// CLI check: out  %1     f32[2,8@j]{V:i}  P('i', 'j')
sdy.mesh @mesh = <["i"=2, "j"=2]>
func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {"j"}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {"j"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {"j"}]>] out_shardings=[<@mesh, [{"i"}, {"j"}]>] manual_axes={"i"} (%a: tensor<2x8xf32>) {
    %1 = stablehlo.add %a, %a : tensor<2x8xf32>
    sdy.return %1 : tensor<2x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
