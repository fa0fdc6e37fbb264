// A pad of a rank-2 operand with one entry per padding list.
// RUN: transpose %s --linear-in 0
// ERROR: edge_padding|pad
func.func @main(%x: tensor<4x4xf32>) -> tensor<6x4xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %p = "stablehlo.pad"(%x, %z) {edge_padding_low = array<i64: 1>, edge_padding_high = array<i64: 1>, interior_padding = array<i64: 0>} : (tensor<4x4xf32>, tensor<f32>) -> tensor<6x4xf32>
  return %p : tensor<6x4xf32>
}
