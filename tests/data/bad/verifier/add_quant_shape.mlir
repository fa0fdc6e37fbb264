// SameOperandsAndResultShape (StablehloOps.td AddOp): quantized operands and result have one shape
func.func @main(%a: tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>, %b: tensor<2x2x!quant.uniform<i8:f32, 1.000000e-01:-30>>) -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>> {
  // expected-error@+1 {{'stablehlo.add' op requires the same shape for all operands and results}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>, tensor<2x2x!quant.uniform<i8:f32, 1.000000e-01:-30>>) -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>
  return %0 : tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>
}
