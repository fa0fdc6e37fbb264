// infeed (TypeInference.cpp verifyInfeedOp): one layout per result but the token
func.func @main(%token: !stablehlo.token) -> tensor<3x3xi32> {
  // expected-error@+1 {{layout-attribute size must be 2 (which is the number of op-results - 1 (for token result)), but got 1}}
  %0:3 = "stablehlo.infeed"(%token) {infeed_config = "", layout = [[0, 1]]} : (!stablehlo.token) -> (tensor<3x3xi32>, tensor<i1>, !stablehlo.token)
  return %0#0 : tensor<3x3xi32>
}
