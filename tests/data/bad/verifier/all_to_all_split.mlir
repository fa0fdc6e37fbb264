// all_to_all_c2 (TypeInference.cpp inferAllToAllOp): the split dimension divides by split_count
func.func @main(%a: tensor<6x4xf32>) -> tensor<3x16xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{split dimension has size 6, expected to be a multiple of split_count 4}}
  %0 = "stablehlo.all_to_all"(%a) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 4 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<6x4xf32>) -> tensor<3x16xf32>
  return %0 : tensor<3x16xf32>
}
