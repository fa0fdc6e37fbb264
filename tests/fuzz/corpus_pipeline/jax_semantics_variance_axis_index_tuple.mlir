// jax tests/shard_map_test.py::ShardMapTest::test_axis_index_twoaxes (axis_index(('i', 'j')) = axis_index('i') * 2 + axis_index('j'), each lowered by _build_axis_index_lowering_hlo), out_specs=P(('i', 'j')): varies over both axes.
// NUMPY: r[0] = np.arange(8)
// CLI check: diagnostics: none
sdy.mesh @mesh = <["i"=4, "j"=2]>
func.func @main() -> (tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"i", "j"}]>}) {
  %0 = sdy.manual_computation() in_shardings=[] out_shardings=[<@mesh, [{"i", "j"}]>] manual_axes={"i", "j"} () {
    %1 = stablehlo.partition_id : tensor<ui32>
    %c = stablehlo.constant dense<2> : tensor<ui32>
    %2 = stablehlo.divide %1, %c : tensor<ui32>
    %c_0 = stablehlo.constant dense<4> : tensor<ui32>
    %3 = stablehlo.remainder %2, %c_0 : tensor<ui32>
    %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
    %5 = stablehlo.partition_id : tensor<ui32>
    %c_1 = stablehlo.constant dense<1> : tensor<ui32>
    %6 = stablehlo.divide %5, %c_1 : tensor<ui32>
    %c_2 = stablehlo.constant dense<2> : tensor<ui32>
    %7 = stablehlo.remainder %6, %c_2 : tensor<ui32>
    %8 = stablehlo.convert %7 : (tensor<ui32>) -> tensor<i32>
    %c_3 = stablehlo.constant dense<2> : tensor<i32>
    %9 = stablehlo.multiply %4, %c_3 : tensor<i32>
    %10 = stablehlo.add %9, %8 : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<i32>) -> tensor<1xi32>
    sdy.return %11 : tensor<1xi32>
  } : () -> tensor<8xi32>
  return %0 : tensor<8xi32>
}
