// async_start wraps one collective or slice op (StablehloOps.cpp AsyncStartOp::inferReturnTypes)
func.func @main(%arg0: tensor<4x4xf32>) -> !stablehlo.future<tensor<4x4xf32>> {
  // expected-error@+2 {{'stablehlo.async_start' op region must contain a collective or slice operation}}
  // expected-error@+1 {{'stablehlo.async_start' op failed to infer returned types}}
  %0 = "stablehlo.async_start"(%arg0) ({
  ^bb0(%a: tensor<4x4xf32>):
    %1 = "stablehlo.add"(%a, %a) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    "stablehlo.return"(%1) : (tensor<4x4xf32>) -> ()
  }) : (tensor<4x4xf32>) -> !stablehlo.future<tensor<4x4xf32>>
  return %0 : !stablehlo.future<tensor<4x4xf32>>
}
