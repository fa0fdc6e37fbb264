// reshape_c3 (TypeInference.cpp verifyReshapeOpQuantizationConstraints): the dimensions before the quantized one keep their product
func.func @main(%a: tensor<2x3x4x!quant.uniform<i8:f32:2, {1.0,1.0,1.0,1.0}>>) -> tensor<4x6x!quant.uniform<i8:f32:0, {1.0,1.0,1.0,1.0}>> {
  // expected-error@+1 {{product of dimensions before quantization dimension must match between operand and result for 6 and 1}}
  %0 = "stablehlo.reshape"(%a) : (tensor<2x3x4x!quant.uniform<i8:f32:2, {1.0,1.0,1.0,1.0}>>) -> tensor<4x6x!quant.uniform<i8:f32:0, {1.0,1.0,1.0,1.0}>>
  return %0 : tensor<4x6x!quant.uniform<i8:f32:0, {1.0,1.0,1.0,1.0}>>
}
