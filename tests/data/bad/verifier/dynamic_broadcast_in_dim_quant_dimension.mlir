// dynamic_broadcast_in_dim_c6 (TypeInference.cpp verifyDynamicBroadcastInDimOp, verifyBroadcastInDimOpQuantConstraints): the result quantization_dimension is where the operand one goes
func.func @main(%a: tensor<1x2x!quant.uniform<i8:f32:0, {1.000000e-01:-30}>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {1.000000e-01:-30,1.000000e-01:-30}>> {
  %s = stablehlo.constant dense<[3, 2]> : tensor<2xi64>
  // expected-error@+1 {{result quantization_dimension 1 not same as broadcast_dimensions[0] = 0}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %s) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<1x2x!quant.uniform<i8:f32:0, {1.000000e-01:-30}>>, tensor<2xi64>) -> tensor<3x2x!quant.uniform<i8:f32:1, {1.000000e-01:-30,1.000000e-01:-30}>>
  return %0 : tensor<3x2x!quant.uniform<i8:f32:1, {1.000000e-01:-30,1.000000e-01:-30}>>
}
