// convolution_c30 (TypeInference.cpp verifyConvolutionOpQuantizationConstraints): a per-axis result is quantized along output_feature_dimension
func.func @main(%x: tensor<1x8x8x2x!quant.uniform<i8:f32, 1.000000e+00:17>>, %k: tensor<3x3x2x2x!quant.uniform<i8:f32:3, {5.000000e+00,5.000000e+00}>>) -> tensor<1x8x8x2x!quant.uniform<i8:f32:0, {1.000000e+00:17}>> {
  // expected-error@+1 {{quantization dimension of result should be same with output_feature_dimension}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, padding = dense<1> : tensor<2x2xi64>} : (tensor<1x8x8x2x!quant.uniform<i8:f32, 1.000000e+00:17>>, tensor<3x3x2x2x!quant.uniform<i8:f32:3, {5.000000e+00,5.000000e+00}>>) -> tensor<1x8x8x2x!quant.uniform<i8:f32:0, {1.000000e+00:17}>>
  return %0 : tensor<1x8x8x2x!quant.uniform<i8:f32:0, {1.000000e+00:17}>>
}
