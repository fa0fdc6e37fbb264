// transpose_c1 (TypeInference.cpp verifyQPerTensorScaleAndZeroPointConstraints): a per-tensor operand and result share scale and zero point
func.func @main(%a: tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:4>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.1:5>> {
  // expected-error@+1 {{expect same quantization scale and zero_point but got 'tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:4>>' vs 'tensor<3x2x!quant.uniform<i8:f32, 1.000000e-01:5>>'}}
  %0 = "stablehlo.transpose"(%a) {permutation = array<i64: 1, 0>} : (tensor<2x3x!quant.uniform<i8:f32, 0.1:4>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.1:5>>
  return %0 : tensor<3x2x!quant.uniform<i8:f32, 0.1:5>>
}
