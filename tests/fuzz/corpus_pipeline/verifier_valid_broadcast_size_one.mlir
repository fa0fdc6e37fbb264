// broadcast_in_dim_c5 allows operand dimensions of size 1 to map to any result size, and
// broadcast_dimensions need not be sorted (broadcast_in_dim_c4 only asks for uniqueness).
func.func @main(%a: tensor<1x4xf32>, %s: tensor<f32>, %c: tensor<4x1xf32>) -> (tensor<3x4xf32>, tensor<2x3xf32>, tensor<1x5x4xf32>) {
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<3x4xf32>
  %1 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %2 = stablehlo.broadcast_in_dim %c, dims = [2, 0] : (tensor<4x1xf32>) -> tensor<1x5x4xf32>
  return %0, %1, %2 : tensor<3x4xf32>, tensor<2x3xf32>, tensor<1x5x4xf32>
}
