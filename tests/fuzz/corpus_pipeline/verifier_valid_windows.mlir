// reduce_window with strides, base dilation and padding (reduce_window_c16: the result counts
// window positions in the padded, dilated base), and select_and_scatter whose source has one
// element per window position (select_and_scatter_c1).
func.func @main(%a: tensor<4x8xf32>, %z: tensor<f32>, %src: tensor<2x4xf32>) -> (tensor<4x4xf32>, tensor<4x8xf32>) {
  %0 = "stablehlo.reduce_window"(%a, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 1, 4>, base_dilations = array<i64: 1, 2>, padding = dense<[[1, 0], [1, 1]]> : tensor<2x2xi64>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x4xf32>
  %1 = "stablehlo.select_and_scatter"(%a, %src, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x8xf32>
}
