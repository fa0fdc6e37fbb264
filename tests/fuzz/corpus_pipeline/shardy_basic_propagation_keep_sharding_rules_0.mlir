sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @existing_and_created_rules_remain(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>},
                  %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = stablehlo.add %0, %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k], [ij, k])->([ij, k]) {i=4, j=2, k=8}>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
