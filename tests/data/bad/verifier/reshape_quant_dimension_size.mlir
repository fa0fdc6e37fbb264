// reshape_c3 (TypeInference.cpp verifyReshapeOpQuantizationConstraints): the quantized dimension keeps its size
func.func @main(%a: tensor<4x6x!quant.uniform<i8:f32:1, {1.0,1.0,1.0,1.0,1.0,1.0}>>) -> tensor<8x3x!quant.uniform<i8:f32:1, {1.0,1.0,1.0}>> {
  // expected-error@+1 {{expect same quantization dimension size for operand and result 'tensor<4x6x!quant.uniform<i8:f32:1, {1.000000e+00,1.000000e+00,1.000000e+00,1.000000e+00,1.000000e+00,1.000000e+00}>>' and 'tensor<8x3x!quant.uniform<i8:f32:1, {1.000000e+00,1.000000e+00,1.000000e+00}>>'}}
  %0 = "stablehlo.reshape"(%a) : (tensor<4x6x!quant.uniform<i8:f32:1, {1.0,1.0,1.0,1.0,1.0,1.0}>>) -> tensor<8x3x!quant.uniform<i8:f32:1, {1.0,1.0,1.0}>>
  return %0 : tensor<8x3x!quant.uniform<i8:f32:1, {1.0,1.0,1.0}>>
}
