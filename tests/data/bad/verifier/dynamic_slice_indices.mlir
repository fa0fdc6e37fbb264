// dynamic_slice_c2 (TypeInference.cpp inferDynamicSliceOp): one start index per operand dimension
func.func @main(%a: tensor<4x4xf32>, %i: tensor<i32>) -> tensor<2xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{has mismatched number of start indices (1) and the rank of operand (2)}}
  %0 = "stablehlo.dynamic_slice"(%a, %i) {slice_sizes = array<i64: 2>} : (tensor<4x4xf32>, tensor<i32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
