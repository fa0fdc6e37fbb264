sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2, "d"=2]>

func.func @shard_as_applies_despite_barrier(
  %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
   -> (tensor<8x8xf32>) {
  %0 = sdy.constant dense<0.000000e+00> : tensor<8x8xf32>
  %1 = sdy.constant dense<0.000000e+00> : tensor<8x8xf32>
  %2 = stablehlo.tanh %arg0 : tensor<8x8xf32>
  %3 = sdy.propagation_barrier %1 allowed_direction=NONE : tensor<8x8xf32>
  %4 = stablehlo.add %2, %3 : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %4 group_id=0 : tensor<8x8xf32>
  return %4 : tensor<8x8xf32>
}
