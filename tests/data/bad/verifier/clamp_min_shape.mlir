// clamp_c1 (TypeInference.cpp inferClampOp): min is a scalar or has the operand's shape
func.func @main(%m: tensor<2xf32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{min shape [2] is not scalar and is not compatible to operand shape [4]}}
  %0 = "stablehlo.clamp"(%m, %a, %a) : (tensor<2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
