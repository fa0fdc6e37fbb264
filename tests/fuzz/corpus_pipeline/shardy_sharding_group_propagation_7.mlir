sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @add_extra_sharding_constraint_for_partially_closed_replicated_sharding(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {?}]> : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>

  %1 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {?}]> : tensor<8x8xf32>
  sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
  func.return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}
