// jax jax/_src/core.py (auto_pcast: `pvary` inserted to match VMAs on simple ops) and docs/notebooks/shard_map.md (implicit pbroadcast): adding an invariant value to a varying one lifts the invariant operand, a free pvary shown at its operand.
// NUMPY: r[0] = a[0] + np.tile(a[1], 4)
// CLI check: stablehlo.add  operand #1  over 'x'  (mixed operands)
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>, %b: tensor<2xf32>) {
    %1 = stablehlo.add %a, %b : tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<8xf32>, tensor<2xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
