// Base.td HLO_Tensor: `negate`'s result is per-tensor quantized at most
func.func @main(%a: tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.5,0.5}>> {
  // expected-error@+1 {{'stablehlo.negate' op result #0 must be ranked tensor of float, pred, integer, complex or per-tensor integer quantized values, but got 'tensor<2x!quant.uniform<i8:f32:0, {5.000000e-01,5.000000e-01}>>'}}
  %0 = "stablehlo.negate"(%a) : (tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.5,0.5}>>
  return %0 : tensor<2x!quant.uniform<i8:f32:0, {0.5,0.5}>>
}
