sdy.mesh @mesh_a_2_b_2 = <["a"=2, "b"=2]>

func.func @direct_arg_return_both_updated(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2, [{"a", ?}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2, [{?}, {"b", ?}]>}) {
  return %arg0 : tensor<8x8xf32>
}
