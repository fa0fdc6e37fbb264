// jax tests/shard_map_test.py::ShardMapTest::test_axis_index_twoaxes, on a 3-axis (2, 2, 2) mesh: axis_index('y') lowers to remainder(divide(partition_id, 2), 2) and varies over 'y' alone, so out_specs=P('y') is legal.
// NUMPY: r[0] = np.arange(2)
// CLI check: diagnostics: none
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @main() -> (tensor<2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  %0 = sdy.manual_computation() in_shardings=[] out_shardings=[<@mesh, [{"y"}]>] manual_axes={"x", "y", "z"} () {
    %1 = stablehlo.partition_id : tensor<ui32>
    %c = stablehlo.constant dense<2> : tensor<ui32>
    %2 = stablehlo.divide %1, %c : tensor<ui32>
    %c_0 = stablehlo.constant dense<2> : tensor<ui32>
    %3 = stablehlo.remainder %2, %c_0 : tensor<ui32>
    %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<i32>) -> tensor<1xi32>
    sdy.return %5 : tensor<1xi32>
  } : () -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
