// uniform_dequantize_c1, uniform_dequantize_c2 (TypeInference.cpp inferUniformDequantizeOp): the result is the operand shape in its expressed type
func.func @main(%a: tensor<2x!quant.uniform<i8:f32, 1.000000e-01>>) -> tensor<2xf16> {
  // expected-error@+2 {{'stablehlo.uniform_dequantize' op failed to infer returned types}}
  // expected-error@+1 {{'stablehlo.uniform_dequantize' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<2xf16>'}}
  %0 = "stablehlo.uniform_dequantize"(%a) : (tensor<2x!quant.uniform<i8:f32, 1.000000e-01>>) -> tensor<2xf16>
  return %0 : tensor<2xf16>
}
