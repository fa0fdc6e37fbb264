// func.return (MLIR ReturnOp::verify): returned types are the function's result types
func.func @main(%a: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{type of return operand 0 ('tensor<8xf32>') doesn't match function result type ('tensor<4xf32>') in function @main}}
  return %a : tensor<8xf32>
}
