sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @element_wise_host_offload_first(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = stablehlo.custom_call @MoveToHost(%0) {backend_config = ""} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.custom_call @MoveToDevice(%1) {backend_config = ""} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = stablehlo.add %2, %2 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
