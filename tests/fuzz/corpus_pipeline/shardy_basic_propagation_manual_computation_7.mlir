sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2, "d"=2, "e"=2, "f"=2, "g"=2]>

func.func @append_out_sharding_from_outside(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"b", ?}, {?}]>] out_shardings=[<@mesh, [{"b", ?}, {?}]>] manual_axes={"b"} (%arg1: tensor<16x32xf32>) {
    %1 = stablehlo.custom_call @sdy_testonly(%arg1) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %2 = stablehlo.add %1, %1 : tensor<16x32xf32>
    sdy.return %2 : tensor<16x32xf32>
  } : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %3 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", "a", ?}, {?}]>]>} : tensor<32x32xf32>
  func.return %3: tensor<32x32xf32>
}
