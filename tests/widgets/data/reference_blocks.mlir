// A value split over two devices, for the execution views: with iota inputs %a is [0, 1, 2, 3]
// and %neg is [0, -1, -2, -3], so device 0 holds [0, -1] and device 1 holds [-2, -3].
sdy.mesh @mesh = <["x"=2]>

func.func @main(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %neg = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<4xf32>
  return %neg : tensor<4xf32>
}
