// dynamic_reshape's output_shape is an HLO_StaticDimensionTensor: its own length must be static
func.func @main(%arg0: tensor<?xf32>, %shape: tensor<?xindex>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'stablehlo.dynamic_reshape' op operand #1 must be statically shaped 1-dimensional tensor of index or 2/4/8/16/32/64-bit integer values, but got 'tensor<?xindex>'}}
  %0 = "stablehlo.dynamic_reshape"(%arg0, %shape) : (tensor<?xf32>, tensor<?xindex>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}
