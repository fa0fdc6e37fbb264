// ChloOps.cpp ScanOp::inferReturnTypeComponents: each output is the body's value with the scan dimension put back
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3x3xf32> {
  // expected-error@+2 {{'chlo.scan' op failed to infer returned types}}
  // expected-error@+1 {{'chlo.scan' op inferred type(s) 'tensor<2x3xf32>', 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<3x3xf32>', 'tensor<3xf32>'}}
  %0:2 = chlo.scan(%a) inits(%b) dimension=0 {
  ^bb0(%x: tensor<3xf32>, %c: tensor<3xf32>):
    %1 = stablehlo.add %x, %c : tensor<3xf32>
    stablehlo.return %1, %1 : tensor<3xf32>, tensor<3xf32>
  } : (tensor<2x3xf32>, tensor<3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>)
  return %0#0 : tensor<3x3xf32>
}
