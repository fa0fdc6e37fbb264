// add_c5 (TypeInference.cpp verifyBinaryOpQuantizationConstraints): a per-axis operand needs a per-axis result
func.func @main(%a: tensor<2x4x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30}>>, %b: tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-30>>) -> tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-30>> {
  // expected-error@+1 {{result is not per_axis quantized but lhs or rhs are}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<2x4x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30}>>, tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-30>>) -> tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-30>>
  return %0 : tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-30>>
}
