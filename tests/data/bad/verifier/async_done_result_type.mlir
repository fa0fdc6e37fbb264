// async_done returns its future's value (StablehloOps.cpp AsyncDoneOp::inferReturnTypes)
func.func @main(%f: !stablehlo.future<tensor<4x4xf32>>) -> tensor<4x4xi32> {
  // expected-error@+2 {{'stablehlo.async_done' op inferred type(s) 'tensor<4x4xf32>' are incompatible with return type(s) of operation 'tensor<4x4xi32>'}}
  // expected-error@+1 {{'stablehlo.async_done' op failed to infer returned types}}
  %0 = "stablehlo.async_done"(%f) : (!stablehlo.future<tensor<4x4xf32>>) -> tensor<4x4xi32>
  return %0 : tensor<4x4xi32>
}
