// scatter with update windows narrower than the operand's (scatter_c4 bounds them by the
// operand's window dimensions, not equality) and a reduction body that adds.
func.func @main(%a: tensor<5x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x2xf32>) -> tensor<5x4xf32> {
  %0 = "stablehlo.scatter"(%a, %i, %u) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5x4xf32>, tensor<3x1xi32>, tensor<3x2xf32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}
