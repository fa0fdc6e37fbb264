// while_c1 (TypeInference.cpp verifyWhileOp): the condition returns a scalar i1
func.func @main(%a: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{expect condition block return a zero-ranked tensor of i1 but got 'tensor<i32>'}}
  %0 = "stablehlo.while"(%a) ({
    ^bb0(%x: tensor<i32>):
      stablehlo.return %x : tensor<i32>
    }, {
    ^bb0(%x: tensor<i32>):
      stablehlo.return %x : tensor<i32>
    }) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}
