// a convolution's dimension numbers name each of b and f once per side (StablehloOps.cpp
// parseConvolutionDimensions)
func.func @main(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x2xf32>) -> tensor<1x6x6x2xf32> {
  // expected-error@+2 {{Unexpected dimension c, expecting b, f}}
  %0 = stablehlo.convolution(%x, %w)
         dim_numbers = [c, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
         window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
         {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
       : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x6x6x2xf32>
  return %0 : tensor<1x6x6x2xf32>
}
