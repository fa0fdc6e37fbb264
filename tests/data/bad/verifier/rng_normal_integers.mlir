// rng_c1 (TypeInference.cpp inferRngOp): a NORMAL distribution takes float mu and sigma
func.func @main(%a: tensor<i32>, %b: tensor<i32>) -> tensor<4xi32> {
  %shape = stablehlo.constant dense<[4]> : tensor<1xi64>
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{mu and sigma must be floats}}
  %0 = "stablehlo.rng"(%a, %b, %shape) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
