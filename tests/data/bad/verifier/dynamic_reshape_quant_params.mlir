// dynamic_reshape_c1 (TypeInference.cpp verifyDynamicReshapeOp, verifyQPerTensorScaleAndZeroPointConstraints): per-tensor operand and result share their parameters
func.func @main(%a: tensor<6x!quant.uniform<i8:f32, 0.5:1>>, %s: tensor<2xi64>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25:1>> {
  // expected-error@+1 {{expect same quantization scale and zero_point but got 'tensor<6x!quant.uniform<i8:f32, 5.000000e-01:1>>' vs 'tensor<2x3x!quant.uniform<i8:f32, 2.500000e-01:1>>'}}
  %0 = "stablehlo.dynamic_reshape"(%a, %s) : (tensor<6x!quant.uniform<i8:f32, 0.5:1>>, tensor<2xi64>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25:1>>
  return %0 : tensor<2x3x!quant.uniform<i8:f32, 0.25:1>>
}
