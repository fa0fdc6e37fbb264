// each function is verified on its own, as MLIR does: both functions' first errors are reported
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{unregistered operation 'stablehlo.frobnicate' found in dialect ('stablehlo') that does not allow unknown operations}}
  %0 = "stablehlo.frobnicate"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @other(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'stablehlo.concatenate' op expected 1 or more operands, but found 0}}
  %0 = "stablehlo.concatenate"() {dimension = 0 : i64} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
