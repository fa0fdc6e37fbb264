// add (TypeInference.cpp verifyBinaryOpQuantizationConstraints): a per-axis result needs a per-axis operand
func.func @main(%a: tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-30>>, %b: tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-30>>) -> tensor<2x4x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30}>> {
  // expected-error@+1 {{result per_axis quantized but none from rhs and lhs are per_axis quantized}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-30>>, tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-30>>) -> tensor<2x4x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30}>>
  return %0 : tensor<2x4x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30}>>
}
