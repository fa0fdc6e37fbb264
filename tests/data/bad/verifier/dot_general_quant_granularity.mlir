// dot_general_c19 (TypeInference.cpp verifyConvolutionDotGeneralCommonQuantizationConstraints): a per-tensor rhs gives a per-tensor result
func.func @main(%a: tensor<2x3x4x!quant.uniform<i8:f32, 1.000000e+00:17>>, %b: tensor<2x3x5x!quant.uniform<i8:f32, 1.000000e+00>>) -> tensor<2x4x5x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30}>> {
  // expected-error@+1 {{mismatched rhs and result quantization granularity}}
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<2x3x4x!quant.uniform<i8:f32, 1.000000e+00:17>>, tensor<2x3x5x!quant.uniform<i8:f32, 1.000000e+00>>) -> tensor<2x4x5x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30}>>
  return %0 : tensor<2x4x5x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30}>>
}
