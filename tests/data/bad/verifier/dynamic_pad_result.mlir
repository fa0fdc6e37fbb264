// dynamic_pad_c4 (TypeInference.cpp verifyDynamicPadOp): constant paddings fix the result size
func.func @main(%a: tensor<4xf32>, %v: tensor<f32>) -> tensor<8xf32> {
  %lo = stablehlo.constant dense<[1]> : tensor<1xi64>
  %hi = stablehlo.constant dense<[1]> : tensor<1xi64>
  %in = stablehlo.constant dense<[1]> : tensor<1xi64>
  // expected-error@+1 {{expected output dimension at index 0 to equal 9, but got 8}}
  %0 = stablehlo.dynamic_pad %a, %v, %lo, %hi, %in : (tensor<4xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
