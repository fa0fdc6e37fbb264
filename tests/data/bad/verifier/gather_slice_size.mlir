// gather_c21 (TypeInference.cpp inferGatherOp): slice sizes fit the operand
func.func @main(%a: tensor<4x8xf32>, %i: tensor<3x1xi32>) -> tensor<3x9xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{slice size (9) is out of bounds for operand dimension (8) at index 1}}
  %0 = "stablehlo.gather"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 9>} : (tensor<4x8xf32>, tensor<3x1xi32>) -> tensor<3x9xf32>
  return %0 : tensor<3x9xf32>
}
