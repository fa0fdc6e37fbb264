// gather_c22 (TypeInference.cpp inferGatherReturnTypeComponents): batch dims from start_indices, offset dims from slice sizes
func.func @main(%a: tensor<4x8xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{'stablehlo.gather' op inferred type(s) 'tensor<3x8xf32>' are incompatible with return type(s) of operation 'tensor<3x4xf32>'}}
  %0 = "stablehlo.gather"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>} : (tensor<4x8xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
