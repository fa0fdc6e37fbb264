// while_c2 (TypeInference.cpp verifyWhileOp): the body returns the loop-carried types
func.func @main(%a: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{expect operands to be compatible with body block return types but got 'tensor<i32>' vs 'tensor<f32>'}}
  %0 = "stablehlo.while"(%a) ({
    ^bb0(%x: tensor<i32>):
      %c = stablehlo.compare LT, %x, %x : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }, {
    ^bb0(%x: tensor<i32>):
      %f = stablehlo.convert %x : (tensor<i32>) -> tensor<f32>
      stablehlo.return %f : tensor<f32>
    }) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}
