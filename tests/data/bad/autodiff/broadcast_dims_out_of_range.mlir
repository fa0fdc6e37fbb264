// broadcast_in_dim mapping an operand dimension to result dimension 6 of a rank-2 result.
// RUN: transpose %s --linear-in 0
// ERROR: broadcast_dimensions|broadcast
func.func @main(%x: tensor<4xf32>) -> tensor<3x4xf32> {
  %b = stablehlo.broadcast_in_dim %x, dims = [6] : (tensor<4xf32>) -> tensor<3x4xf32>
  return %b : tensor<3x4xf32>
}
