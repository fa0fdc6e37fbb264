// quantized_type_c7, c8 (Base.cpp isValidStablehloQuantizedElementType): a zero point lies inside the storage range
func.func @main(%a: tensor<4x!quant.uniform<i8:f32, 1.0:300>>) -> tensor<4xf32> {
  // expected-error@+1 {{'stablehlo.uniform_dequantize' op operand #0 must be ranked tensor of float, pred, integer, complex, per-tensor or per-axis integer quantized values, but got 'tensor<4x!quant.uniform<i8:f32, 1.000000e+00:300>>'}}
  %0 = "stablehlo.uniform_dequantize"(%a) : (tensor<4x!quant.uniform<i8:f32, 1.0:300>>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
