// gather with index_vector_dim equal to start_indices' rank (an implied trailing 1, gather_c3),
// collapsed dims sliced at size 1 (gather_c9); batch_norm_inference with scale, offset, mean
// and variance sized by the feature dimension (batch_norm_inference_c3); a lower-triangular
// solve from the left (triangular_solve_c3 compares a's minor size with b's second-last).
func.func @main(%table: tensor<5x4xf32>, %ids: tensor<3xi32>, %x: tensor<2x3xf32>, %f: tensor<3xf32>, %a: tensor<2x2xf32>, %b: tensor<2x3xf32>) -> (tensor<3x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = "stablehlo.gather"(%table, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<5x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  %1 = "stablehlo.batch_norm_inference"(%x, %f, %f, %f, %f) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = true} : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<3x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
