// dynamic_broadcast_in_dim (TypeInference.cpp verifyDynamicBroadcastInDimOp): a static operand dimension is 1 or the constant output size it maps to
func.func @main(%a: tensor<3xf32>) -> tensor<2x?xf32> {
  %s = stablehlo.constant dense<[2, 4]> : tensor<2xi64>
  // expected-error@+1 {{size of operand dimension 0 (3) is not equal to 1 or value of shape at index 1 (4)}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %s) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}
