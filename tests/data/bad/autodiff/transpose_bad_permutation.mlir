// A transpose whose permutation names dimension 9 of a rank-2 operand.
// RUN: transpose %s --linear-in 0
// RUN: grad %s --wrt 0
// ERROR: permutation
func.func @main(%x: tensor<4x8xf32>) -> tensor<f32> {
  %t = stablehlo.transpose %x, dims = [9, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%t init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<f32>
  return %s : tensor<f32>
}
