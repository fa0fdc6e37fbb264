// add_c3 (TypeInference.cpp verifyBinaryOpQuantizationConstraints): operands and result share one storage type
func.func @main(%a: tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>, %b: tensor<4x!quant.uniform<i16:f32, 1.000000e-01:-30>>) -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>> {
  // expected-error@+1 {{mismatched operands and result quantization storage types}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>, tensor<4x!quant.uniform<i16:f32, 1.000000e-01:-30>>) -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>
  return %0 : tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>
}
