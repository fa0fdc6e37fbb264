// dynamic_reshape_c2 (TypeInference.cpp verifyDynamicReshapeOp): a constant output_shape keeps the element count
func.func @main(%a: tensor<4x8xf32>) -> tensor<?x?xf32> {
  %shape = stablehlo.constant dense<[5, 7]> : tensor<2xi64>
  // expected-error@+1 {{output_shape is incompatible with input type of operation: input has 32 elements, but output_shape has 35}}
  %0 = stablehlo.dynamic_reshape %a, %shape : (tensor<4x8xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
