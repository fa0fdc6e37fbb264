// ChloOps.cpp checkRaggedDotConstraints (mode 1): the rhs group dim has one entry per group
func.func @main(%lhs: tensor<11x5xf32>, %rhs: tensor<3x5x7xf32>, %group_sizes: tensor<2xi64>) -> tensor<11x7xf32> {
  // expected-error@+1 {{rhs group dimension is expected to have size=2, got 3}}
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %group_sizes) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>} : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<2xi64>) -> tensor<11x7xf32>
  return %0 : tensor<11x7xf32>
}
