// a HIGHEST (or DEFAULT) result accuracy has no tolerances (TypeInference.cpp
// verifyResultAccuracyCombination)
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{Invalid tolerances for ResultAccuracyAttr with mode HIGHEST, must be all zero.}}
  %0 = "stablehlo.exponential"(%x) {result_accuracy = #stablehlo.result_accuracy<atol = 1.0e-05, rtol = 0.0, ulps = 0, mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
