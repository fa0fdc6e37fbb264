// dynamic_gather_c22 (TypeInference.cpp inferDynamicGatherOp): constant slice sizes give the result's offset dims
func.func @main(%operand: tensor<2x4x9xi32>, %indices: tensor<1x5x2xi32>) -> tensor<1x5x7xi32> {
  %sizes = stablehlo.constant dense<[1, 1, 8]> : tensor<3xi32>
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{'stablehlo.dynamic_gather' op inferred type(s) 'tensor<1x5x8xi32>' are incompatible with return type(s) of operation 'tensor<1x5x7xi32>'}}
  %0 = "stablehlo.dynamic_gather"(%operand, %indices, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, indices_are_sorted = false} : (tensor<2x4x9xi32>, tensor<1x5x2xi32>, tensor<3xi32>) -> tensor<1x5x7xi32>
  return %0 : tensor<1x5x7xi32>
}
