// reshape_c1 (TypeInference.cpp verifyReshapeOp): a quantized reshape keeps the element count too
func.func @main(%a: tensor<2x3x!quant.uniform<i8:f32, 0.5>>) -> tensor<8x!quant.uniform<i8:f32, 0.5>> {
  // expected-error@+1 {{number of output elements (8) doesn't match expected number of elements (6)}}
  %0 = "stablehlo.reshape"(%a) : (tensor<2x3x!quant.uniform<i8:f32, 0.5>>) -> tensor<8x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<8x!quant.uniform<i8:f32, 0.5>>
}
