// reduce_window_c4 (TypeInference.cpp verifyReduceWindowOpInputsAndInferWindow): one window dimension per input dimension
func.func @main(%a: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<3x8xf32> {
  // expected-error@+1 {{expects window-dimensions size == input rank, but got window-dimensions size: 1 and input: 'tensor<4x8xf32>' with rank = 2.}}
  %0 = "stablehlo.reduce_window"(%a, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}
