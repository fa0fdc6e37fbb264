// dot_general_c15 (TypeInference.cpp verifyDotGeneralOpQuantizationConstraints): a per-tensor rhs has zero point 0
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x3x5x!quant.uniform<i8:f32, 1.000000e+00:30>>) -> tensor<2x4x5xf32> {
  // expected-error@+1 {{Zero point of rhs should be 0}}
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<2x3x4xf32>, tensor<2x3x5x!quant.uniform<i8:f32, 1.000000e+00:30>>) -> tensor<2x4x5xf32>
  return %0 : tensor<2x4x5xf32>
}
