// Edge cases of transpose (identity and rank 3), reshape to a scalar, iota on the last
// dimension, reverse of no dimension and concatenate with an empty operand.
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<1xf32>, %e: tensor<0x3xf32>, %m: tensor<2x3xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<f32>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = stablehlo.transpose %a, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = stablehlo.transpose %a, dims = [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = stablehlo.reshape %b : (tensor<1xf32>) -> tensor<f32>
  %3 = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %4 = stablehlo.reverse %m, dims = [] : tensor<2x3xf32>
  %5 = stablehlo.concatenate %m, %e, dim = 0 : (tensor<2x3xf32>, tensor<0x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<f32>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<2x3xf32>
}
