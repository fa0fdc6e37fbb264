// slice_c3 (TypeInference.cpp inferSliceOp): start <= limit
func.func @main(%a: tensor<4xf32>) -> tensor<0xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{start index 3 is larger than limit index 2 in dimension 0}}
  %0 = "stablehlo.slice"(%a) {start_indices = array<i64: 3>, limit_indices = array<i64: 2>, strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<0xf32>
  return %0 : tensor<0xf32>
}
