// Base.td HLO_Tensor: `concatenate`'s variadic inputs are per-tensor quantized at most
func.func @main(%a: tensor<2x2x!quant.uniform<i8:f32:1, {0.1,0.2}>>) -> tensor<4x2x!quant.uniform<i8:f32:1, {0.1,0.2}>> {
  // expected-error@+1 {{'stablehlo.concatenate' op operand #0 must be variadic of ranked tensor of float, pred, integer, complex or per-tensor integer quantized values, but got 'tensor<2x2x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01}>>'}}
  %0 = "stablehlo.concatenate"(%a, %a) {dimension = 0 : i64} : (tensor<2x2x!quant.uniform<i8:f32:1, {0.1,0.2}>>, tensor<2x2x!quant.uniform<i8:f32:1, {0.1,0.2}>>) -> tensor<4x2x!quant.uniform<i8:f32:1, {0.1,0.2}>>
  return %0 : tensor<4x2x!quant.uniform<i8:f32:1, {0.1,0.2}>>
}
