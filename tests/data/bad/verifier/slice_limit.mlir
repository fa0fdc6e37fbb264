// slice_c3 (TypeInference.cpp inferSliceOp): limit indices stay within the operand
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{limit index 5 is larger than dimension size 4 in dimension 0}}
  %0 = "stablehlo.slice"(%a) {start_indices = array<i64: 1>, limit_indices = array<i64: 5>, strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
