// dynamic_gather_c1 (TypeInference.cpp verifyGather): offset, collapsed and batching dims cover the operand's rank
func.func @main(%operand: tensor<2x4x9xi32>, %indices: tensor<1x5x2xi32>, %sizes: tensor<3xi32>) -> tensor<1x5x8x1xi32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{offset_dims size (2) plus collapse_slice_dims size (2) plus operand_batching_dims size (0) is not equal to operand rank (3)}}
  %0 = "stablehlo.dynamic_gather"(%operand, %indices, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, indices_are_sorted = false} : (tensor<2x4x9xi32>, tensor<1x5x2xi32>, tensor<3xi32>) -> tensor<1x5x8x1xi32>
  return %0 : tensor<1x5x8x1xi32>
}
