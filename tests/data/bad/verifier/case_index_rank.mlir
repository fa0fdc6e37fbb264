// case_i1 (TypeInference.cpp inferConditionalOp): the branch index is a scalar
func.func @main(%i: tensor<2xi32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{operand should be rank 0 tensor but got rank 1}}
  %0 = "stablehlo.case"(%i) ({
      stablehlo.return %a : tensor<4xf32>
    }) : (tensor<2xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
