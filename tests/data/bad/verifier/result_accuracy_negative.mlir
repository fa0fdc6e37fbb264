// result accuracy tolerances are not negative (TypeInference.cpp verifyResultAccuracyAttr)
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{Negative tolerance}}
  %0 = "stablehlo.tanh"(%x) {result_accuracy = #stablehlo.result_accuracy<atol = 0.0, rtol = 0.0, ulps = -2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
