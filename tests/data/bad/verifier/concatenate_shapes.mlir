// concatenate_c2 (TypeInference.cpp inferConcatenateOp): operands agree outside the concatenated dimension
func.func @main(%a: tensor<4x2xf32>, %b: tensor<4x3xf32>) -> tensor<8x2xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{shapes of operand (0) and (1) are not compatible at non-concat index 1: (4, 2) != (4, 3)}}
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}
