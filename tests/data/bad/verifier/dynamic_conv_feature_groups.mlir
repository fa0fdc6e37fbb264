// dynamic_conv_c14 (TypeInference.cpp inferDynamicConvOp, verifyConvolutionAttributes): input features / feature_group_count is the kernel input feature size
func.func @main(%x: tensor<1x8x8x4xf32>, %k: tensor<3x3x2x16xf32>) -> tensor<1x8x8x16xf32> {
  %p = stablehlo.constant dense<1> : tensor<2x2xi64>
  // expected-error@+1 {{expects input feature dimension (4) / feature_group_count = kernel input feature dimension (2). Got feature_group_count = 1.}}
  %0 = "stablehlo.dynamic_conv"(%x, %k, %p) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x2x16xf32>, tensor<2x2xi64>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
