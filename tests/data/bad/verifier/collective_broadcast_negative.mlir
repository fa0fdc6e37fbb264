// collective_broadcast_c2 (TypeInference.cpp verifyCollectiveBroadcastOp): replica ids are non-negative
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{replica_groups values must be positive, but was given -2}}
  %0 = "stablehlo.collective_broadcast"(%a) {replica_groups = dense<[[0, -2]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
