// Base.td HLO_Tensor: `abs` takes per-tensor quantized operands only (its ODS operand class)
func.func @main(%a: tensor<2x3x!quant.uniform<i8:f32:0, {0.1:-30,0.2:-30}>>) -> tensor<2x3x!quant.uniform<i8:f32:0, {0.1:-30,0.2:-30}>> {
  // expected-error@+1 {{'stablehlo.abs' op operand #0 must be ranked tensor of float, pred, integer, complex or per-tensor integer quantized values, but got 'tensor<2x3x!quant.uniform<i8:f32:0, {1.000000e-01:-30,2.000000e-01:-30}>>'}}
  %0 = "stablehlo.abs"(%a) : (tensor<2x3x!quant.uniform<i8:f32:0, {0.1:-30,0.2:-30}>>) -> tensor<2x3x!quant.uniform<i8:f32:0, {0.1:-30,0.2:-30}>>
  return %0 : tensor<2x3x!quant.uniform<i8:f32:0, {0.1:-30,0.2:-30}>>
}
