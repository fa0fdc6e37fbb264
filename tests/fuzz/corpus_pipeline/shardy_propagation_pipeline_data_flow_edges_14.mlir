sdy.mesh @mesh_a_2_b_2 = <["a"=2, "b"=2]>
sdy.mesh @mesh_a_2_b_2_c_2 = <["a"=2, "b"=2, "c"=2]>

func.func @while_body_token_block_arg_skipped(%arg0: tensor<32x96xf32>, %arg1: !stablehlo.token)
    -> (tensor<32x96xf32>, !stablehlo.token) {
  %0 = sdy.constant dense<0> : tensor<i32>
  %1 = sdy.constant dense<1> : tensor<i32>
  %2 = sdy.constant dense<32> : tensor<i32>
  %3:3 = stablehlo.while(%iterArg = %arg1, %iterArg_0 = %arg0, %iterArg_1 = %0) : !stablehlo.token, tensor<32x96xf32>, tensor<i32>
    cond {
    %4 = stablehlo.compare  LT, %iterArg_1, %2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  } do {
    %4 = stablehlo.add %iterArg_1, %1 : tensor<i32>
    %5 = stablehlo.add %iterArg_0, %iterArg_0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a_2_b_2, [{"a"}, {"b"}]>]>} : tensor<32x96xf32>
    %6 = stablehlo.custom_call @sdy_testonly(%5) : (tensor<32x96xf32>) -> tensor<32x96xf32>
    stablehlo.return %iterArg, %6, %4 : !stablehlo.token, tensor<32x96xf32>, tensor<i32>
  }
  return %3#1, %3#0 : tensor<32x96xf32>, !stablehlo.token
}
