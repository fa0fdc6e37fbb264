// A dot_general batching dimension beyond the rhs rank.
// RUN: transpose %s --linear-in 0
// ERROR: dot_general|batching|dimension
func.func @main(%x: tensor<2x4x8xf32>, %w: tensor<2x8x4xf32>) -> tensor<2x4x4xf32> {
  %y = stablehlo.dot_general %x, %w, batching_dims = [0] x [7], contracting_dims = [2] x [1] : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  return %y : tensor<2x4x4xf32>
}
