// Quant dialect (TypeParser.cpp parseUniformType): a quantized dimension is not negative
// expected-error@+1 {{illegal quantized dimension: -1}}
func.func @main(%a: tensor<2x!quant.uniform<i8:f32:-1, {0.5,0.5}>>) -> tensor<2xf32> {
  %0 = "stablehlo.uniform_dequantize"(%a) : (tensor<2x!quant.uniform<i8:f32:-1, {0.5,0.5}>>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
