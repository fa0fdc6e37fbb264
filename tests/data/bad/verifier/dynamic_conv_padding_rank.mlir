// dynamic_conv_c4 (TypeInference.cpp inferDynamicConvOp): padding is a rank-2 tensor
func.func @main(%x: tensor<1x8x8x4xf32>, %k: tensor<3x3x4x16xf32>) -> tensor<1x8x8x16xf32> {
  %p = stablehlo.constant dense<1> : tensor<4xi64>
  // expected-error@+1 {{expects padding to be of rank 2 but got 1}}
  %0 = "stablehlo.dynamic_conv"(%x, %k, %p) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x16xf32>, tensor<4xi64>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
