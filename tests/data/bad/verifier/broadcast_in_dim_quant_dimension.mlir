// broadcast_in_dim_c6 (TypeInference.cpp verifyBroadcastInDimOpQuantConstraints): the result quantization_dimension is where the operand one goes
func.func @main(%a: tensor<1x2x1x!quant.uniform<i8:f32:2, {1.000000e-01:-30}>>) -> tensor<1x2x3x2x!quant.uniform<i8:f32:3, {1.000000e-01:-30,1.000000e-01:-30}>> {
  // expected-error@+1 {{result quantization_dimension 3 not same as broadcast_dimensions[2] = 2}}
  %0 = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x2x1x!quant.uniform<i8:f32:2, {1.000000e-01:-30}>>) -> tensor<1x2x3x2x!quant.uniform<i8:f32:3, {1.000000e-01:-30,1.000000e-01:-30}>>
  return %0 : tensor<1x2x3x2x!quant.uniform<i8:f32:3, {1.000000e-01:-30,1.000000e-01:-30}>>
}
