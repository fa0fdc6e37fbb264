// A transpose whose permutation repeats a dimension (and so leaves one out).
// RUN: transpose %s --linear-in 0
// ERROR: permutation
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %t = stablehlo.transpose %x, dims = [0, 0] : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}
