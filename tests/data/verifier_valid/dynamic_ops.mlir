// dynamic_broadcast_in_dim and dynamic_conv cases the rules accept: a size-1 operand dimension
// expanded to a constant output size (dynamic_broadcast_in_dim_c5, with expansion hints on
// distinct operand dimensions, c8), and a strided dynamic_conv whose padding is a constant
// operand of shape [2, 2] (dynamic_conv_c4: 8x8 padded by 1, 3x3 window, stride 2 gives 4x4).
func.func @main(%a: tensor<1x3xf32>, %x: tensor<1x8x8x4xf32>, %k: tensor<3x3x4x16xf32>) -> (tensor<5x3xf32>, tensor<1x4x4x16xf32>) {
  %s = stablehlo.constant dense<[5, 3]> : tensor<2xi64>
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %s) {broadcast_dimensions = array<i64: 0, 1>, known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 1>} : (tensor<1x3xf32>, tensor<2xi64>) -> tensor<5x3xf32>
  %p = stablehlo.constant dense<1> : tensor<2x2xi64>
  %1 = "stablehlo.dynamic_conv"(%x, %k, %p) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = array<i64: 2, 2>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x16xf32>, tensor<2x2xi64>) -> tensor<1x4x4x16xf32>
  return %0, %1 : tensor<5x3xf32>, tensor<1x4x4x16xf32>
}
