// A shard_map whose `_reference` twin computes something else: the reference check reports a
// divergence on the result, and the execution panel marks it.
sdy.mesh @mesh = <["x"=2]>

func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
    %1 = stablehlo.negate %a : tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @main_reference(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
