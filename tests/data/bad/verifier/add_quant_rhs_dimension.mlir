// add_c7 (TypeInference.cpp verifyBinaryOpQuantizationConstraints): a per-axis rhs is quantized along the result quantization_dimension
func.func @main(%a: tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-30>>, %b: tensor<2x4x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30}>>) -> tensor<2x4x!quant.uniform<i8:f32:1, {1.000000e-01:-30,1.000000e-01:-30,1.000000e-01:-30,1.000000e-01:-30}>> {
  // expected-error@+1 {{quantization_dimension of rhs and result are not same 'tensor<2x4x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30}>>' vs 'tensor<2x4x!quant.uniform<i8:f32:1, {1.000000e-01:-30,1.000000e-01:-30,1.000000e-01:-30,1.000000e-01:-30}>>'}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-30>>, tensor<2x4x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30}>>) -> tensor<2x4x!quant.uniform<i8:f32:1, {1.000000e-01:-30,1.000000e-01:-30,1.000000e-01:-30,1.000000e-01:-30}>>
  return %0 : tensor<2x4x!quant.uniform<i8:f32:1, {1.000000e-01:-30,1.000000e-01:-30,1.000000e-01:-30,1.000000e-01:-30}>>
}
