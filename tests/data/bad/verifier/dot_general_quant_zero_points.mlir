// dot_general_c15 (TypeInference.cpp verifyDotGeneralOpQuantizationConstraints): a per-axis rhs has zero points 0
func.func @main(%a: tensor<2x3x4x!quant.uniform<i8:f32, 1.000000e+00:17>>, %b: tensor<2x3x5x!quant.uniform<i8:f32:0, {1.000000e-01:10,1.000000e-01:10}>>) -> tensor<2x4x5x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30}>> {
  // expected-error@+1 {{Zero points of rhs should be 0}}
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<2x3x4x!quant.uniform<i8:f32, 1.000000e+00:17>>, tensor<2x3x5x!quant.uniform<i8:f32:0, {1.000000e-01:10,1.000000e-01:10}>>) -> tensor<2x4x5x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30}>>
  return %0 : tensor<2x4x5x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30}>>
}
