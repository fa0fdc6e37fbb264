// pad_c4 (TypeInference.cpp inferPadOp): negative padding leaves a non-negative size
func.func @main(%a: tensor<4xf32>, %v: tensor<f32>) -> tensor<0xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{Padding result in negative size for dimension 0}}
  %0 = stablehlo.pad %a, %v, low = [-3], high = [-3], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<0xf32>
  return %0 : tensor<0xf32>
}
