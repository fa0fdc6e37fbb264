// convolution with padding and strides (convolution_c25: 8x8 padded by 1 each side, 3x3 window,
// stride 2 gives 4x4), and a depthwise one (feature_group_count = input features, kernel input
// feature dimension 1, convolution_c14).
func.func @main(%x: tensor<1x8x8x4xf32>, %k: tensor<3x3x4x16xf32>, %d: tensor<3x3x1x4xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x6x6x4xf32>) {
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = array<i64: 2, 2>, padding = dense<1> : tensor<2x2xi64>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x16xf32>) -> tensor<1x4x4x16xf32>
  %1 = "stablehlo.convolution"(%x, %d) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 4 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x1x4xf32>) -> tensor<1x6x6x4xf32>
  return %0, %1 : tensor<1x4x4x16xf32>, tensor<1x6x6x4xf32>
}
