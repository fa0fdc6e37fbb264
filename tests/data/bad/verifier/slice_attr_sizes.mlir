// slice_c2 (StablehloOps.td AllMatchSameOperatorTrait): start, limit and strides have one size
func.func @main(%a: tensor<4x4xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'stablehlo.slice' op failed to verify that all of {start_indices, limit_indices, strides} have same size}}
  %0 = "stablehlo.slice"(%a) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 2>, strides = array<i64: 1>} : (tensor<4x4xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
