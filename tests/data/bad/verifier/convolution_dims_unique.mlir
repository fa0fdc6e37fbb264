// convolution_c13 (TypeInference.cpp isSpatialDimensionsValid): input dimension numbers are unique
func.func @main(%x: tensor<1x8x8x4xf32>, %k: tensor<3x3x4x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error@+1 {{expects input dimension-numbers to be unique, got {0, 3, 1, 1}.}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 1], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}
