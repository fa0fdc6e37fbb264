// select_and_scatter_c1 (TypeInference.cpp verifySelectAndScatterOp): the source has one element per window position
func.func @main(%a: tensor<4x8xf32>, %src: tensor<2x2xf32>, %z: tensor<f32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{expects source-type to be 'tensor<2x4xf32>', but got'tensor<2x2xf32>'}}
  %0 = "stablehlo.select_and_scatter"(%a, %src, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x8xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
