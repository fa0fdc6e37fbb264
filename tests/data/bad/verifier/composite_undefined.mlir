// composite_c2 (TypeInference.cpp verifyCompositeOp): the decomposition is a function of the module
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'my.missing_impl' does not reference a valid function}}
  %0 = stablehlo.composite "my.op" %a {decomposition = @my.missing_impl} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
