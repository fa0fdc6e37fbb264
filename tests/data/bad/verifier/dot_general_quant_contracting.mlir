// dot_general_c16 (TypeInference.cpp verifyDotGeneralOpQuantizationConstraints): a per-axis rhs is not quantized along a contracting dimension
func.func @main(%a: tensor<2x3x4x!quant.uniform<i8:f32, 1.000000e+00:17>>, %b: tensor<2x3x5x!quant.uniform<i8:f32:1, {1.000000e-01,1.000000e-01,1.000000e-01}>>) -> tensor<2x4x5x!quant.uniform<i8:f32, 1.000000e+00:17>> {
  // expected-error@+1 {{Quantization dimension of rhs should not be in the contracting dimension of rhs}}
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<2x3x4x!quant.uniform<i8:f32, 1.000000e+00:17>>, tensor<2x3x5x!quant.uniform<i8:f32:1, {1.000000e-01,1.000000e-01,1.000000e-01}>>) -> tensor<2x4x5x!quant.uniform<i8:f32, 1.000000e+00:17>>
  return %0 : tensor<2x4x5x!quant.uniform<i8:f32, 1.000000e+00:17>>
}
