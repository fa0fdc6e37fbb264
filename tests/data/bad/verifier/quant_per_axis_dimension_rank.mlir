// quantized_type_c12 (Base.cpp isValidQuantizedDimension): the quantized dimension lies inside the shape
func.func @main(%a: tensor<2x!quant.uniform<i8:f32:3, {1.0,2.0}>>) -> tensor<2xf32> {
  // expected-error@+1 {{'stablehlo.uniform_dequantize' op operand #0 must be ranked tensor of float, pred, integer, complex, per-tensor or per-axis integer quantized values, but got 'tensor<2x!quant.uniform<i8:f32:3, {1.000000e+00,2.000000e+00}>>'}}
  %0 = "stablehlo.uniform_dequantize"(%a) : (tensor<2x!quant.uniform<i8:f32:3, {1.0,2.0}>>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
