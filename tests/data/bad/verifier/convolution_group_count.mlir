// convolution_c21 (StablehloOps.td ConfinedAttr<I64Attr, [IntPositive]>:$feature_group_count)
func.func @main(%x: tensor<1x8x8x4xf32>, %k: tensor<3x3x4x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error@+1 {{'stablehlo.convolution' op attribute 'feature_group_count' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 0 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}
