// broadcast_in_dim_c1 (TypeInference.cpp verifyQPerTensorScaleAndZeroPointConstraints): per-tensor operand and result share scale and zero point
func.func @main(%a: tensor<2x!quant.uniform<i8:f32, 1.000000e-01:-30>>) -> tensor<3x2x!quant.uniform<i8:f32, 2.000000e-01:-30>> {
  // expected-error@+1 {{expect same quantization scale and zero_point but got 'tensor<2x!quant.uniform<i8:f32, 1.000000e-01:-30>>' vs 'tensor<3x2x!quant.uniform<i8:f32, 2.000000e-01:-30>>'}}
  %0 = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 1>} : (tensor<2x!quant.uniform<i8:f32, 1.000000e-01:-30>>) -> tensor<3x2x!quant.uniform<i8:f32, 2.000000e-01:-30>>
  return %0 : tensor<3x2x!quant.uniform<i8:f32, 2.000000e-01:-30>>
}
