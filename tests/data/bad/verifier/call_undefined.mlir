// func.call (MLIR CallOp::verifySymbolUses): the callee is a function of the module
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'func.call' op 'nowhere' does not reference a valid function}}
  %0 = func.call @nowhere(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
