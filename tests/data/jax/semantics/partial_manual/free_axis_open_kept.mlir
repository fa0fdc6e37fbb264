// jax tests/shard_map_test.py::ShardMapTest::test_partial_auto_propagate_through (partial manual over 'i', the auto axis 'j' left to the partitioner) and jax/_src/shard_map.py::_unshard_shaped_array (a result dim gets its out_spec axes followed by the body value's own free axes): an open free axis keeps 'j' on dim 1 inside the body, and the typed form keeps it outside.
// NUMPY: r[0] = np.sin(a[0])
// CLI check: in   %arg1  f32[2,8@j]{V:i}
// CLI check: manual_axes={"i"}  free_axes={"j"}
// CLI check: diagnostics: none
// CLI types --explicit-axes=j: %a  f32[2,8@j]  argument of sdy.manual_computation
// CLI types --explicit-axes=j: %0  f32[4,8@j]  sdy.manual_computation
// CLI types --explicit-axes=j: rejected by JAX: 0 ops
sdy.mesh @mesh = <["i"=2, "j"=2]>
func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {"j", ?}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {?}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {"j", ?}]>] out_shardings=[<@mesh, [{"i"}, {?}]>] manual_axes={"i"} (%a: tensor<2x8xf32>) {
    %1 = stablehlo.sine %a : tensor<2x8xf32>
    sdy.return %1 : tensor<2x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
