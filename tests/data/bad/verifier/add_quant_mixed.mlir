// add_c2 (TypeInference.cpp verifyBinaryOpQuantizationConstraints): operands and result are all quantized or none is
func.func @main(%a: tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>, %b: tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>> {
  // expected-error@+1 {{expects  all operands and results to be either quantized or non-quantized}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>, tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>
  return %0 : tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>
}
