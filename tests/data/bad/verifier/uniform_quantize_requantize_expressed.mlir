// uniform_quantize_c2 (TypeInference.cpp verifyUniformQuantizeOp): requantizing keeps the expressed type
func.func @main(%a: tensor<2x!quant.uniform<i8:f32, 1.000000e-01>>) -> tensor<2x!quant.uniform<i8:f64, 1.000000e-01>> {
  // expected-error@+1 {{Expressed type of result expected to be 'f32', but got 'f64'}}
  %0 = "stablehlo.uniform_quantize"(%a) : (tensor<2x!quant.uniform<i8:f32, 1.000000e-01>>) -> tensor<2x!quant.uniform<i8:f64, 1.000000e-01>>
  return %0 : tensor<2x!quant.uniform<i8:f64, 1.000000e-01>>
}
