// reshape_c2 (TypeInference.cpp verifyReshapeOp): reshape keeps the element count
func.func @main(%a: tensor<4x8xf32>) -> tensor<30xf32> {
  // expected-error@+1 {{number of output elements (30) doesn't match expected number of elements (32)}}
  %0 = stablehlo.reshape %a : (tensor<4x8xf32>) -> tensor<30xf32>
  return %0 : tensor<30xf32>
}
