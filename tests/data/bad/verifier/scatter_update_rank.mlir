// scatter_c4 (TypeInference.cpp verifyScatterOp): updates have rank rank(scatter_indices) - 1 + size(update_window_dims)
func.func @main(%a: tensor<5x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4x1xf32>) -> tensor<5x4xf32> {
  // expected-error@+1 {{expects updates tensor must be of rank 2 ( == rank-of('scatter_indices') - 1 + size-of('update_window_dims'), where 'scatter_indices' is expanded by a trailing 1 dimension if 'index_vector_dim' == rank-of('scatter_indices')), but got 3.}}
  %0 = "stablehlo.scatter"(%a, %i, %u) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5x4xf32>, tensor<3x1xi32>, tensor<3x4x1xf32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}
