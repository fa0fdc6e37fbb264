// StablehloOps.td SineOp (HLO_FpComplexOrQuantizedIntTensor): the sine of an integer tensor is not defined
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'stablehlo.sine' op operand #0 must be ranked tensor of float, complex or per-tensor integer quantized values, but got 'tensor<4xi32>'}}
  %0 = stablehlo.sine %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}
