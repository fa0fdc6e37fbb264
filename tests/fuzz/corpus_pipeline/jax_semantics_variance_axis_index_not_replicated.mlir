// jax jax/_src/shard_map.py::_check_reps / _spec_rank_error (out_specs requiring replication that can't be inferred): axis_index('i') on a (4, 2) mesh returned with out_specs=P() really varies over 'i', so the error stays, naming 'i' only.
// CLI-FAIL check: only varying across mesh axes {} and not {i}, but it was inferred to be possibly varying over {i}
sdy.mesh @mesh = <["i"=4, "j"=2]>
func.func @main() -> (tensor<1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = sdy.manual_computation() in_shardings=[] out_shardings=[<@mesh, [{}]>] manual_axes={"i", "j"} () {
    %1 = stablehlo.partition_id : tensor<ui32>
    %c = stablehlo.constant dense<2> : tensor<ui32>
    %2 = stablehlo.divide %1, %c : tensor<ui32>
    %c_0 = stablehlo.constant dense<4> : tensor<ui32>
    %3 = stablehlo.remainder %2, %c_0 : tensor<ui32>
    %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<i32>) -> tensor<1xi32>
    sdy.return %5 : tensor<1xi32>
  } : () -> tensor<1xi32>
  return %0 : tensor<1xi32>
}
