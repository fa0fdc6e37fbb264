sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2, "d"=2, "e"=2, "f"=2, "g"=2]>



func.func @manual_computation_output_sharding_annotation(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={} (%arg1: tensor<32x32xf32>) {
    %1 = stablehlo.custom_call @sdy_testonly(%arg1) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %2 = stablehlo.add %1, %1 : tensor<32x32xf32>
    sdy.return %2 : tensor<32x32xf32>
  } : (tensor<32x32xf32>) -> tensor<32x32xf32>
  func.return %0: tensor<32x32xf32>
}
