sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

func.func @open_empty_dim_with_priority(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p0, {"b"}p0]>},
    %arg1: tensor<8x8xf32>,
    %arg2: tensor<8x8xf32>,
    %arg3: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"c"}p0]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}p1]>]>} : tensor<8x8xf32>
  %1 = stablehlo.add %0, %arg2 : tensor<8x8xf32>
  %2 = stablehlo.divide %1, %arg3 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
