// composite_c3 (TypeInference.cpp verifyCompositeOp): operand types are the decomposition's argument types
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{operand at index 0 has type 'tensor<4xf32>', but decomposition has type 'tensor<8xf32>'}}
  %0 = stablehlo.composite "my.op" %a {decomposition = @impl} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func private @impl(%x: tensor<8xf32>) -> tensor<4xf32> {
  %0 = stablehlo.slice %x [0:4] : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
