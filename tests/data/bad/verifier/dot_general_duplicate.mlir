// dot_general_c3 (TypeInference.cpp checkDimsDistinct): a lhs dimension is batching or contracting, not both
func.func @main(%a: tensor<3x8xf32>, %b: tensor<3x8xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{has duplicated dimension from lhs_batching_dimensions and lhs_contracting_dimensions: 0}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [0] x [1] : (tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
