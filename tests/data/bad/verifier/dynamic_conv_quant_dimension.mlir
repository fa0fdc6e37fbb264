// dynamic_conv_i2 (StablehloOps.td: the rhs is an HLO_Tensor): a per-axis quantized kernel is refused by its type class before dynamic_conv_c29 (its quantized dimension) could apply
func.func @main(%x: tensor<1x8x8x4xf32>, %k: tensor<3x3x4x16x!quant.uniform<i8:f32:2, {1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01}>>) -> tensor<1x8x8x16xf32> {
  %p = stablehlo.constant dense<1> : tensor<2x2xi64>
  // expected-error@+1 {{'stablehlo.dynamic_conv' op operand #1 must be ranked tensor of float, pred, integer, complex or per-tensor integer quantized values, but got 'tensor<3x3x4x16x!quant.uniform<i8:f32:2, {1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01}>>'}}
  %0 = "stablehlo.dynamic_conv"(%x, %k, %p) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x16x!quant.uniform<i8:f32:2, {1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01}>>, tensor<2x2xi64>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
