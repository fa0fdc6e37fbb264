// dynamic_conv_c1 (TypeInference.cpp inferDynamicConvOp): lhs and rhs have the same rank
func.func @main(%x: tensor<1x8x8x4xf32>, %k: tensor<3x4x16xf32>) -> tensor<1x8x8x16xf32> {
  %p = stablehlo.constant dense<1> : tensor<2x2xi64>
  // expected-error@+1 {{expects convolution arguments to have same number of dimensions. Got: 'tensor<1x8x8x4xf32>' and 'tensor<3x4x16xf32>'.}}
  %0 = "stablehlo.dynamic_conv"(%x, %k, %p) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x4x16xf32>, tensor<2x2xi64>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
