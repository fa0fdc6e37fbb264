// scatter_c4 (TypeInference.cpp verifyScatterOp): update windows fit the operand's window dimensions
func.func @main(%a: tensor<5x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x6xf32>) -> tensor<5x4xf32> {
  // expected-error@+1 {{expects bounds of the window dimensions of updates to not exceed the bounds of the corresponding dimensions of operand. For dimension 1, updates bound is 6, operand bound is 4.}}
  %0 = "stablehlo.scatter"(%a, %i, %u) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5x4xf32>, tensor<3x1xi32>, tensor<3x6xf32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}
