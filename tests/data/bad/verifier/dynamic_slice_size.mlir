// dynamic_slice_c4 (TypeInference.cpp inferDynamicSliceOp): slice sizes fit the operand
func.func @main(%a: tensor<4xf32>, %i: tensor<i32>) -> tensor<6xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{has slice size 6 greater than dimension size 4 in dimension 0 of operand}}
  %0 = "stablehlo.dynamic_slice"(%a, %i) {slice_sizes = array<i64: 6>} : (tensor<4xf32>, tensor<i32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
