// StablehloOps.td ShiftLeftOp (HLO_IntTensor): shifts take integers, not booleans
func.func @main(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error@+1 {{'stablehlo.shift_left' op operand #0 must be ranked tensor of integer values, but got 'tensor<4xi1>'}}
  %0 = stablehlo.shift_left %a, %a : tensor<4xi1>
  return %0 : tensor<4xi1>
}
