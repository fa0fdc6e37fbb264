// scatter_c4 (TypeInference.cpp verifyScatterOp): one update per scatter index
func.func @main(%a: tensor<5x4xf32>, %i: tensor<3x1xi32>, %u: tensor<2x4xf32>) -> tensor<5x4xf32> {
  // expected-error@+1 {{expects bounds of the scatter dimensions of updates to be same as the bounds of the corresponding dimensions of scatter indices. For scatter dimension 0, updates bound is 2 , scatter_indices bound is 3.}}
  %0 = "stablehlo.scatter"(%a, %i, %u) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5x4xf32>, tensor<3x1xi32>, tensor<2x4xf32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}
