// jax tests/shard_map_test.py::ShardMapTest::test_axis_index_twoaxes (axis_index('i') on a (4, 2) mesh, lowered by jax/_src/lax/parallel.py::_build_axis_index_lowering_hlo as remainder(divide(partition_id, 2), 4)), returned with out_specs=P('i'): it varies over 'i' only, so the output replicated over 'j' is legal.
// NUMPY: r[0] = np.arange(4)
// CLI check: diagnostics: none
// CLI-NOT check: varies over
sdy.mesh @mesh = <["i"=4, "j"=2]>
func.func @main() -> (tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}]>}) {
  %0 = sdy.manual_computation() in_shardings=[] out_shardings=[<@mesh, [{"i"}]>] manual_axes={"i", "j"} () {
    %1 = stablehlo.partition_id : tensor<ui32>
    %c = stablehlo.constant dense<2> : tensor<ui32>
    %2 = stablehlo.divide %1, %c : tensor<ui32>
    %c_0 = stablehlo.constant dense<4> : tensor<ui32>
    %3 = stablehlo.remainder %2, %c_0 : tensor<ui32>
    %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<i32>) -> tensor<1xi32>
    sdy.return %5 : tensor<1xi32>
  } : () -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
