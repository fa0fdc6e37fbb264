// broadcast_in_dim_c6 (TypeInference.cpp verifyBroadcastInDimOpQuantConstraints): a size-1 quantized axis gives every result axis its scale
func.func @main(%a: tensor<1x2x1x!quant.uniform<i8:f32:2, {1.000000e-01:-30}>>) -> tensor<1x2x3x2x!quant.uniform<i8:f32:3, {2.000000e-01:2,5.000000e-01:-20}>> {
  // expected-error@+1 {{mismatch result scale 0 (2.000000e-01) and operand scale 0 (1.000000e-01)}}
  %0 = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 0, 1, 3>} : (tensor<1x2x1x!quant.uniform<i8:f32:2, {1.000000e-01:-30}>>) -> tensor<1x2x3x2x!quant.uniform<i8:f32:3, {2.000000e-01:2,5.000000e-01:-20}>>
  return %0 : tensor<1x2x3x2x!quant.uniform<i8:f32:3, {2.000000e-01:2,5.000000e-01:-20}>>
}
