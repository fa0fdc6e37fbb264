// infeed_c3 (TypeInference.cpp verifyInfeedOp): the last result is the token
func.func @main(%token: !stablehlo.token) -> tensor<i32> {
  // expected-error@+1 {{last element of result types is expected to be of token type, but got 'tensor<i32>'}}
  %0:2 = "stablehlo.infeed"(%token) {infeed_config = ""} : (!stablehlo.token) -> (tensor<i32>, tensor<i32>)
  return %0#0 : tensor<i32>
}
