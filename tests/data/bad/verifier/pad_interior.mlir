// pad_c3 (TypeInference.cpp inferPadOp): interior padding is non-negative
func.func @main(%a: tensor<4xf32>, %v: tensor<f32>) -> tensor<4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{Interior padding cannot be negative: -1}}
  %0 = stablehlo.pad %a, %v, low = [0], high = [0], interior = [-1] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
