// Base.td HLO_Tensor (RankedTensorOf): a quantized operand is ranked
func.func @main(%a: tensor<*x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x!quant.uniform<i8:f32, 0.5>> {
  // expected-error@+1 {{'stablehlo.reshape' op operand #0 must be ranked tensor of float, pred, integer, complex, per-tensor or per-axis integer quantized values, but got 'tensor<*x!quant.uniform<i8:f32, 5.000000e-01>>'}}
  %0 = "stablehlo.reshape"(%a) : (tensor<*x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x!quant.uniform<i8:f32, 0.5>>
}
