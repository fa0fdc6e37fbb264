// all_gather_c1 (TypeInference.cpp verifyAllGatherOp): all_gather_dim indexes the operand
func.func @main(%a: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{all_gather_dim must be a valid index of operand}}
  %0 = "stablehlo.all_gather"(%a) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
