// gather_c3 (TypeInference.cpp verifyGather): start_index_map has one entry per index vector element
func.func @main(%a: tensor<4x8xf32>, %i: tensor<3x1xi32>) -> tensor<3x8xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{start_index_map size (2) is not equal to size of index dimension (1) of start_indices (1)}}
  %0 = "stablehlo.gather"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>} : (tensor<4x8xf32>, tensor<3x1xi32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}
