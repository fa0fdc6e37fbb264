// The edited version of diff_before.mlir (same lines): the second argument's
// sharding moves from rows to columns, so the add needs a reshard in the edited one.
sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> tensor<8x8xf32> {
  %s = stablehlo.add %a, %b : tensor<8x8xf32>
  %t = stablehlo.tanh %s : tensor<8x8xf32>
  return %t : tensor<8x8xf32>
}
