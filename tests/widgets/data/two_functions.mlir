// main calls helper: a value selected in helper brings helper's graph.
sdy.mesh @mesh = <["x"=2]>

func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = call @helper(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @helper(%b: tensor<8xf32>) -> tensor<8xf32> {
  %t = stablehlo.tanh %b : tensor<8xf32>
  %s = stablehlo.multiply %t, %t : tensor<8xf32>
  return %s : tensor<8xf32>
}
