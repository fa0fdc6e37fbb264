// precision_config holds #stablehlo<precision ...> values (HLO_PrecisionConfigAttr)
func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'stablehlo.dot' op attribute 'precision_config' failed to satisfy constraint: Precision Config attribute}}
  %0 = "stablehlo.dot"(%a, %b) {precision_config = ["HIGHEST", #stablehlo<precision HIGHEST>]} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
