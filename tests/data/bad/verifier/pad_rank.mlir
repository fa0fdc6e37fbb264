// pad_c2 (TypeInference.cpp inferPadOp): one padding entry per operand dimension
func.func @main(%a: tensor<4xf32>, %v: tensor<f32>) -> tensor<4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{edge_padding_low length (2) must match operand rank (1)}}
  %0 = stablehlo.pad %a, %v, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
