// all_reduce_c5 (TypeInference.cpp verifyReducerShape): the reduction body takes two scalars per operand
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{Reduction-region must take 2 parameters, but takes 1 parameter(s)}}
  %0 = "stablehlo.all_reduce"(%a) ({
    ^bb0(%x: tensor<f32>):
      stablehlo.return %x : tensor<f32>
    }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
