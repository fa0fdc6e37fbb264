// A transpose whose permutation is shorter than the operand's rank.
// RUN: transpose %s --linear-in 0
// ERROR: permutation
func.func @main(%x: tensor<2x4x8xf32>) -> tensor<8x2x4xf32> {
  %t = stablehlo.transpose %x, dims = [2] : (tensor<2x4x8xf32>) -> tensor<8x2x4xf32>
  return %t : tensor<8x2x4xf32>
}
