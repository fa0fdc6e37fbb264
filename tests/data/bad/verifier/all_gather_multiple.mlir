// all_gather_c6 (TypeInference.cpp verifyAllGatherOp): the gathered size is a multiple of the operand's
func.func @main(%a: tensor<4xf32>) -> tensor<6xf32> {
  // expected-error@+1 {{result gather dimension has size 6, expected to be a multiple of operand gather dimension size 4}}
  %0 = "stablehlo.all_gather"(%a) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
