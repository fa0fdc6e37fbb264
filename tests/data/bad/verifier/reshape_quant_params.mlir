// reshape_c1 (TypeInference.cpp verifyQPerAxisScaleAndZeroPointConstraints): per-axis operand and result share their scales and zero points
func.func @main(%a: tensor<2x3x!quant.uniform<i8:f32:1, {1.0,2.0,3.0}>>) -> tensor<2x3x1x!quant.uniform<i8:f32:1, {1.0,2.0,4.0}>> {
  // expected-error@+1 {{expect same quantization scales and zero_points but got 'tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e+00,2.000000e+00,3.000000e+00}>>' vs 'tensor<2x3x1x!quant.uniform<i8:f32:1, {1.000000e+00,2.000000e+00,4.000000e+00}>>'}}
  %0 = "stablehlo.reshape"(%a) : (tensor<2x3x!quant.uniform<i8:f32:1, {1.0,2.0,3.0}>>) -> tensor<2x3x1x!quant.uniform<i8:f32:1, {1.0,2.0,4.0}>>
  return %0 : tensor<2x3x1x!quant.uniform<i8:f32:1, {1.0,2.0,4.0}>>
}
