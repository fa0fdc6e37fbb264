// neither StableHLO nor Shardy allows unknown operations: a misspelled op is an error, not an
// opaque op that later stages would guess at
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{unregistered operation 'stablehlo.frobnicate' found in dialect ('stablehlo') that does not allow unknown operations}}
  %0 = "stablehlo.frobnicate"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
