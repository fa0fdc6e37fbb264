// all_to_all_c8 (TypeInference.cpp verifyReplicaGroups): every group has split_count replicas
func.func @main(%a: tensor<4x4xf32>) -> tensor<2x8xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{group size of replica_groups must be 2}}
  %0 = "stablehlo.all_to_all"(%a) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4x4xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
