// jax jax/_src/lax/parallel.py::_axis_index_lowering (axis_index('i') is partition_id divided by the product of the axes after 'i' and taken modulo its size) under a shard_map manual over 'i' only: the index varies over 'i' alone, is replicated over the free axis 'j', and out_specs P('i') holds.
// NUMPY: r[0] = np.array([0, 1], dtype=np.int32)
// CLI check: u32[]{V:i}   -       stablehlo.remainder
// CLI check: out  %4     u32[1]{V:i}      P('i')
// CLI check: diagnostics: none
sdy.mesh @mesh = <["i"=2, "j"=2]>
func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {"j"}]>}) -> (tensor<2xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {"j"}]>] out_shardings=[<@mesh, [{"i"}]>] manual_axes={"i"} (%a: tensor<2x8xf32>) {
    %pid = stablehlo.partition_id : tensor<ui32>
    %c2 = stablehlo.constant dense<2> : tensor<ui32>
    %1 = stablehlo.divide %pid, %c2 : tensor<ui32>
    %2 = stablehlo.remainder %1, %c2 : tensor<ui32>
    %3 = stablehlo.reshape %2 : (tensor<ui32>) -> tensor<1xui32>
    sdy.return %3 : tensor<1xui32>
  } : (tensor<4x8xf32>) -> tensor<2xui32>
  return %0 : tensor<2xui32>
}
