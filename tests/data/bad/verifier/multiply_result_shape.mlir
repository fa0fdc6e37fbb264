// multiply_c1 (HLO_CompatibleOperandsAndResultType, InferTypeOpInterface): the result type is the operands' type
func.func @main(%a: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'stablehlo.multiply' op requires compatible types for all operands and results}}
  %0 = "stablehlo.multiply"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
