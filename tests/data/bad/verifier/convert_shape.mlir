// convert_c1 (SameOperandsAndResultShape): convert keeps the shape
func.func @main(%a: tensor<4xf32>) -> tensor<8xi32> {
  // expected-error@+1 {{'stablehlo.convert' op requires the same shape for all operands and results}}
  %0 = "stablehlo.convert"(%a) : (tensor<4xf32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}
