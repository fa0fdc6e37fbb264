// gather_c9 (TypeInference.cpp inferGatherOp): a collapsed dimension is sliced at size 1
func.func @main(%a: tensor<4x8xf32>, %i: tensor<3x1xi32>) -> tensor<3x8xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{Expects that for each dim in collapsed_slice_dims, slice_sizes[dim] should be <= 1, but got 2}}
  %0 = "stablehlo.gather"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2, 8>} : (tensor<4x8xf32>, tensor<3x1xi32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}
