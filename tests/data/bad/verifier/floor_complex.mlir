// StablehloOps.td FloorOp (HLO_FpOrQuantizedIntTensor): floor takes real floats
func.func @main(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error@+1 {{'stablehlo.floor' op operand #0 must be ranked tensor of float or per-tensor integer quantized values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = stablehlo.floor %a : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
