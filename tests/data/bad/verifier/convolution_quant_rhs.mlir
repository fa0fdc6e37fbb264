// convolution_c28 (TypeInference.cpp verifyConvolutionDotGeneralCommonQuantizationConstraints): a quantized convolution has a quantized rhs
func.func @main(%x: tensor<1x8x8x4xf32>, %k: tensor<3x3x4x2xf32>) -> tensor<1x8x8x2x!quant.uniform<i8:f32, 1.000000e+01:50>> {
  // expected-error@+1 {{rhs should be quantized for quantized operations and is_quantized(lhs)=is_quantized(result) should hold}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, padding = dense<1> : tensor<2x2xi64>} : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x8x8x2x!quant.uniform<i8:f32, 1.000000e+01:50>>
  return %0 : tensor<1x8x8x2x!quant.uniform<i8:f32, 1.000000e+01:50>>
}
