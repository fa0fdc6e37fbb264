// dot_general_c18 (TypeInference.cpp verifyConvolutionDotGeneralCommonQuantizationConstraints): quantized lhs, rhs and result share one expressed type
func.func @main(%a: tensor<2x3x4x!quant.uniform<i8:f32, 1.000000e+00:17>>, %b: tensor<2x3x5x!quant.uniform<i8:f16, 1.000000e+00>>) -> tensor<2x4x5x!quant.uniform<i8:f32, 1.000000e+00:17>> {
  // expected-error@+1 {{mismatched lhs, rhs and result quantization expressed types}}
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<2x3x4x!quant.uniform<i8:f32, 1.000000e+00:17>>, tensor<2x3x5x!quant.uniform<i8:f16, 1.000000e+00>>) -> tensor<2x4x5x!quant.uniform<i8:f32, 1.000000e+00:17>>
  return %0 : tensor<2x4x5x!quant.uniform<i8:f32, 1.000000e+00:17>>
}
