// reduce_scatter_c8 (TypeInference.cpp verifyReduceScatterOp): the operand's scattered size is a multiple of the result's
func.func @main(%a: tensor<6xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{operand scatter dimension has size 6, expected to be a multiple of result scatter dimension size 4}}
  %0 = "stablehlo.reduce_scatter"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<6xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
