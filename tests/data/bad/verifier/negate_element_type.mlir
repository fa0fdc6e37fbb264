// negate_c1 (HLO_CompatibleOperandsAndResultType): operand and result types agree
func.func @main(%a: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error@+1 {{'stablehlo.negate' op requires compatible types for all operands and results}}
  %0 = "stablehlo.negate"(%a) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
