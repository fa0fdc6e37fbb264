// Quant dialect (QuantTypes.cpp UniformQuantizedType::verifyInvariants): a scale is positive
// expected-error@+1 {{scale 0.000000e+00 out of expressed type range [1.401298e-45, 3.402823e+38]}}
func.func @main(%a: tensor<2x!quant.uniform<i8:f32, 0.0>>) -> tensor<2xf32> {
  %0 = "stablehlo.uniform_dequantize"(%a) : (tensor<2x!quant.uniform<i8:f32, 0.0>>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
