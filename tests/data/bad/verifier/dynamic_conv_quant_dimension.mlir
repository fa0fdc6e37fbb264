// dynamic_conv_c29 (TypeInference.cpp verifyConvolutionOpQuantizationConstraints): a per-axis rhs is quantized along kernel_output_feature_dimension
func.func @main(%x: tensor<1x8x8x4xf32>, %k: tensor<3x3x4x16x!quant.uniform<i8:f32:2, {1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01}>>) -> tensor<1x8x8x16xf32> {
  %p = stablehlo.constant dense<1> : tensor<2x2xi64>
  // expected-error@+1 {{quantization dimension of rhs should be same with kernel_output_feature_dimension}}
  %0 = "stablehlo.dynamic_conv"(%x, %k, %p) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x16x!quant.uniform<i8:f32:2, {1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01}>>, tensor<2x2xi64>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
