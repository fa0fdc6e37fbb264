// pad_c4 (TypeInference.cpp inferPadOp): the result size is low + high + size + (size - 1) * interior
func.func @main(%a: tensor<4xf32>, %v: tensor<f32>) -> tensor<8xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{'stablehlo.pad' op inferred type(s) 'tensor<9xf32>' are incompatible with return type(s) of operation 'tensor<8xf32>'}}
  %0 = stablehlo.pad %a, %v, low = [1], high = [1], interior = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
