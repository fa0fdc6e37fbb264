// Quant dialect (QuantTypes.cpp QuantizedType::verifyInvariants): an explicit storage range lies inside the storage type
// expected-error@+1 {{illegal storage min and storage max: (-200:100)}}
func.func @main(%a: tensor<2x!quant.uniform<i8<-200:100>:f32, 0.5>>) -> tensor<2xf32> {
  %0 = "stablehlo.uniform_dequantize"(%a) : (tensor<2x!quant.uniform<i8<-200:100>:f32, 0.5>>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
