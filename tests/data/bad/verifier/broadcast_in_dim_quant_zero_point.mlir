// broadcast_in_dim_c6 (TypeInference.cpp verifyBroadcastInDimOpQuantConstraints): a size-1 quantized axis gives every result axis its zero point
func.func @main(%a: tensor<1x2x1x!quant.uniform<i8:f32:2, {1.000000e-01:-30}>>) -> tensor<1x2x3x2x!quant.uniform<i8:f32:3, {1.000000e-01:-30,1.000000e-01:-20}>> {
  // expected-error@+1 {{mismatch result zero_point 1 (-20) and operand zero_point 0 (-30)}}
  %0 = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 0, 1, 3>} : (tensor<1x2x1x!quant.uniform<i8:f32:2, {1.000000e-01:-30}>>) -> tensor<1x2x3x2x!quant.uniform<i8:f32:3, {1.000000e-01:-30,1.000000e-01:-20}>>
  return %0 : tensor<1x2x3x2x!quant.uniform<i8:f32:3, {1.000000e-01:-30,1.000000e-01:-20}>>
}
