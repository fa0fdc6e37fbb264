// dynamic_update_slice_c6 (TypeInference.cpp inferDynamicUpdateSliceOp): the update fits in the operand
func.func @main(%a: tensor<4xf32>, %u: tensor<6xf32>, %i: tensor<i32>) -> tensor<4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{expects size at dimension 0 of update to be in range [0, 4]. Got: 6.}}
  %0 = "stablehlo.dynamic_update_slice"(%a, %u, %i) : (tensor<4xf32>, tensor<6xf32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
