// Quant dialect (QuantTypes.cpp UniformQuantizedType::verifyInvariants): a scale lies in its expressed type's range
// expected-error@+1 {{scale 7.000000e+04 out of expressed type range [5.960464e-08, 6.550400e+04]}}
func.func @main(%a: tensor<2x!quant.uniform<i8:f16, 7.0e+04>>) -> tensor<2xf32> {
  %0 = "stablehlo.uniform_dequantize"(%a) : (tensor<2x!quant.uniform<i8:f16, 7.0e+04>>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
