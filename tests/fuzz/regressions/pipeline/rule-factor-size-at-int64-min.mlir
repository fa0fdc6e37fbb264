// A sharding rule whose factor sizes are near the int64 limits (Shardy does not check that they
// multiply to the dimension sizes): aggressive propagation multiplied them without overflow checks.
sdy.mesh @mesh = <["b"=2, "a"=2]>

func.func @existing_and_created_rules_remain(%arg0: tensor<8x8xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>},
                  %arg1: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %0 = stablehlo.power %arg0, %arg1 : tensor<8x8xf64>
  %1 = stablehlo.add %0, %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k], [ij, k])->([ij, k]) {i=4, j=-9223372036854775808, k=8}>} : tensor<8x8xf64>
  return %1 : tensor<8x8xf64>
}
