// a gather's dimension numbers have six known fields (StablehloOps.cpp parseStruct)
func.func @main(%operand: tensor<4x2xf32>, %indices: tensor<3x1xi32>) -> tensor<3x2xf32> {
  %0 = "stablehlo.gather"(%operand, %indices) <{
    // expected-error@+2 {{expected one of: `offset_dims`, `collapsed_slice_dims`, `operand_batching_dims`, `start_indices_batching_dims`, `start_index_map`, `index_vector_dim`}}
    // expected-error@+1 {{failed parsing gather dimension numbers attribute}}
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2>
  }> : (tensor<4x2xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
