// select_c1 (TypeInference.cpp inferSelectOp): a non-scalar predicate has the operands' shape
func.func @main(%p: tensor<2xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{requires the same shape for all operands}}
  %0 = "stablehlo.select"(%p, %a, %a) : (tensor<2xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
