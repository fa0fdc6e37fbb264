// reduce_window_c7 (TypeInference.cpp verifyWindowAttributesAndInferWindowDimensions): window strides are positive
func.func @main(%a: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<3x7xf32> {
  // expected-error@+1 {{expects window to have positive stride for 1-th window dimension, but got 0.}}
  %0 = "stablehlo.reduce_window"(%a, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 0>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}
