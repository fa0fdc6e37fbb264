// convolution_c34 (TypeInference.cpp verifyConvolutionDotGeneralCommonQuantizationConstraints): with a float lhs, lhs and result are the rhs expressed type
func.func @main(%x: tensor<1x8x8x2xf16>, %k: tensor<3x3x2x2x!quant.uniform<i8:f32, 5.000000e+00>>) -> tensor<1x8x8x2xf16> {
  // expected-error@+1 {{mismatched rhs quantization expressed type and lhs and result element type}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, padding = dense<1> : tensor<2x2xi64>} : (tensor<1x8x8x2xf16>, tensor<3x3x2x2x!quant.uniform<i8:f32, 5.000000e+00>>) -> tensor<1x8x8x2xf16>
  return %0 : tensor<1x8x8x2xf16>
}
