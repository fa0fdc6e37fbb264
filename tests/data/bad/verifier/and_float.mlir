// StablehloOps.td AndOp (HLO_PredOrIntTensor): bitwise and logical and take booleans or integers
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'stablehlo.and' op operand #0 must be ranked tensor of pred (boolean) or integer values, but got 'tensor<4xf32>'}}
  %0 = stablehlo.and %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
