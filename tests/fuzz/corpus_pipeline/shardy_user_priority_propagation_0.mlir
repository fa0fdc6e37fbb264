sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

func.func @no_priorities(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>},
                         %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = stablehlo.divide %0, %arg2 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
