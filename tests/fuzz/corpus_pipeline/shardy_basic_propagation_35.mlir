sdy.mesh @mesh_a_2_b_3 = <["a"=2, "b"=3]>

func.func @non_minor_most_factor_non_divisible_other_open_dim_unchanged(
  %arg0: tensor<3x32xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_3, [{?}, {"a", "b", ?}]>})
  -> tensor<3x8x4xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a_2_b_3, [{"b"}, {?}, {?}]>]>} : (tensor<3x32xf32>) -> tensor<3x8x4xf32>
  return %0 : tensor<3x8x4xf32>
}
