// if_c2 (TypeInference.cpp inferConditionalOp): both branches return the same types
func.func @main(%p: tensor<i1>, %a: tensor<4xf32>, %b: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{branch 0 and branch 1 have mismatched return types: 'tensor<4xf32>' vs 'tensor<8xf32>'}}
  %0 = "stablehlo.if"(%p) ({
      stablehlo.return %a : tensor<4xf32>
    }, {
      stablehlo.return %b : tensor<8xf32>
    }) : (tensor<i1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
