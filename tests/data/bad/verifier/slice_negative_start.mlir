// slice_c3 (TypeInference.cpp inferSliceOp): start indices are non-negative
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{negative start index -1 in dimension 0}}
  %0 = "stablehlo.slice"(%a) {start_indices = array<i64: -1>, limit_indices = array<i64: 3>, strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
