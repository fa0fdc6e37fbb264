// slice_c5 (TypeInference.cpp inferSliceOp): the result has ceil((limit - start) / stride) elements per dimension
func.func @main(%a: tensor<8xf32>) -> tensor<3xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{'stablehlo.slice' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = "stablehlo.slice"(%a) {start_indices = array<i64: 1>, limit_indices = array<i64: 8>, strides = array<i64: 2>} : (tensor<8xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
