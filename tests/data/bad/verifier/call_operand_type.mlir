// func.call (MLIR CallOp::verifySymbolUses): operand types are the callee's argument types
func.func @main(%a: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'func.call' op operand type mismatch: expected operand type 'tensor<4xf32>', but provided 'tensor<8xf32>' for operand number 0}}
  %0 = func.call @callee(%a) : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
