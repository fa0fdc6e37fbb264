// dynamic_conv_c27 (TypeInference.cpp inferDynamicConvOp): lhs and rhs have compatible element types
func.func @main(%x: tensor<1x8x8x4xf32>, %k: tensor<3x3x4x16xf16>) -> tensor<1x8x8x16xf32> {
  %p = stablehlo.constant dense<1> : tensor<2x2xi64>
  // expected-error@+1 {{expects lhs and rhs to have compatible element type. Got: 'f32' and 'f16'}}
  %0 = "stablehlo.dynamic_conv"(%x, %k, %p) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x16xf16>, tensor<2x2xi64>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
