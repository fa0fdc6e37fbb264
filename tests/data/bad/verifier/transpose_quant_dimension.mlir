// transpose_c4 (TypeInference.cpp verifyTransposeOp): a per-axis result is quantized where the permutation takes the operand's quantized dimension
func.func @main(%a: tensor<2x3x4x!quant.uniform<i8:f32:0, {1.000000e-01,2.000000e-01}>>) -> tensor<3x4x2x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01,4.000000e-01}>> {
  // expected-error@+1 {{operand quantization_dimension 0 is not same as permutation[1] = 2}}
  %0 = "stablehlo.transpose"(%a) {permutation = array<i64: 1, 2, 0>} : (tensor<2x3x4x!quant.uniform<i8:f32:0, {1.000000e-01,2.000000e-01}>>) -> tensor<3x4x2x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01,4.000000e-01}>>
  return %0 : tensor<3x4x2x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01,4.000000e-01}>>
}
