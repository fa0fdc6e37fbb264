// quantized_type_c12, c13 (Base.cpp isValidQuantizedDimension): one scale per index of the quantized dimension
func.func @main(%a: tensor<3x!quant.uniform<i8:f32:0, {1.0,2.0}>>) -> tensor<3xf32> {
  // expected-error@+1 {{'stablehlo.uniform_dequantize' op operand #0 must be ranked tensor of float, pred, integer, complex, per-tensor or per-axis integer quantized values, but got 'tensor<3x!quant.uniform<i8:f32:0, {1.000000e+00,2.000000e+00}>>'}}
  %0 = "stablehlo.uniform_dequantize"(%a) : (tensor<3x!quant.uniform<i8:f32:0, {1.0,2.0}>>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
