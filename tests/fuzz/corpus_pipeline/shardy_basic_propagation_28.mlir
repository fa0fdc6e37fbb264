sdy.mesh @mesh_a_3 = <["a"=3]>

func.func @single_factor_non_divisible(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh_a_3, [{}, {"a"}]>}) -> tensor<2x4xf32> {
  %0 = stablehlo.add %arg0, %arg0 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
