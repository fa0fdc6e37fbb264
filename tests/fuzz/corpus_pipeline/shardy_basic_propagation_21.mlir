sdy.mesh @mesh_a_2_b_2 = <["a"=2, "b"=2]>

func.func @reshape_merge_dim_major_factor_partially_sharded(
    %arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2, [{"a"}, {"b"}]>}) -> tensor<16xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<4x4xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
