// ChloOps.td MulhiOp (HLO_IntTensor): mulhi takes 2- to 64-bit integers, not booleans
func.func @main(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error@+1 {{'chlo.mulhi' op operand #0 must be ranked tensor of 2/4/8/16/32/64-bit integer values, but got 'tensor<4xi1>'}}
  %0 = "chlo.mulhi"(%a, %a) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
