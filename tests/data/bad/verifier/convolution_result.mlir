// convolution_c25 (TypeInference.cpp verifyConvolutionOp): the result shape follows the window positions
func.func @main(%x: tensor<1x8x8x4xf32>, %k: tensor<3x3x4x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error@+1 {{inferred shape '[1, 6, 6, 16]' is incompatible with return type of operation 'tensor<1x8x8x16xf32>'}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
