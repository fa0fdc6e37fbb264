// ChloOps.cpp ScanOp::verify: the scan dimension is a dimension of every input
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'chlo.scan' op scan dimension of operand 0 is out of bounds}}
  %0:2 = chlo.scan(%a) inits(%b) dimension=2 {
  ^bb0(%x: tensor<3xf32>, %c: tensor<3xf32>):
    %1 = stablehlo.add %x, %c : tensor<3xf32>
    stablehlo.return %1, %1 : tensor<3xf32>, tensor<3xf32>
  } : (tensor<2x3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>)
  return %0#0 : tensor<2x3xf32>
}
