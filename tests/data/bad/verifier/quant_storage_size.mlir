// Quant dialect (QuantTypes.cpp QuantizedType::verifyInvariants): storage is at most 32 bits
// expected-error@+1 {{illegal storage type size: 64}}
func.func @main(%a: tensor<2x!quant.uniform<i64:f32, 0.5>>) -> tensor<2xf32> {
  %0 = "stablehlo.uniform_dequantize"(%a) : (tensor<2x!quant.uniform<i64:f32, 0.5>>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
