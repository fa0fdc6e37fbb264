// dot_general's result is batch dims, then lhs free dims, then rhs free dims (dot_general_c12),
// with contracting dimensions in any order; dot takes a matrix and a vector.
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %m: tensor<3x4xf32>, %v: tensor<4xf32>) -> (tensor<2x3x5xf32>, tensor<5x3xf32>, tensor<3xf32>) {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %1 = stablehlo.dot_general %b, %a, contracting_dims = [0, 1] x [0, 2] : (tensor<2x4x5xf32>, tensor<2x3x4xf32>) -> tensor<5x3xf32>
  %2 = "stablehlo.dot"(%m, %v) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  return %0, %1, %2 : tensor<2x3x5xf32>, tensor<5x3xf32>, tensor<3xf32>
}
