sdy.mesh @mesh_a_2_b_2 = <["a"=2, "b"=2]>
sdy.mesh @mesh_a_2_b_2_c_2 = <["a"=2, "b"=2, "c"=2]>

func.func @while_body_token_block_arg_skipped(%arg0: tensor<32x96xf32>, %arg1: !stablehlo.token)
    -> (tensor<32x96xf32>, !stablehlo.token) {
  %0 = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.constant dense<1> : tensor<i32>
  %2 = stablehlo.constant dense<32> : tensor<i32>
  %3:3 = stablehlo.while(%iterArg = %arg1, %iterArg_2 = %arg0, %iterArg_1 = %0) : !stablehlo.token, tensor<32x96xf32>, tensor<i32>
    cond {
    %6 = stablehlo.compare  LT, %iterArg_1, %2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %6 : tensor<i1>
  } do {
    %6 = stablehlo.add %iterArg_1, %1 : tensor<i32>
    %7 = stablehlo.add %iterArg_2, %iterArg_2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a_2_b_2, [{"a"}, {"b"}]>]>} : tensor<32x96xf32>
    %8 = stablehlo.custom_call @sdy_testonly(%7) : (tensor<32x96xf32>) -> tensor<32x96xf32>
    stablehlo.return %iterArg, %8, %6 : !stablehlo.token, tensor<32x96xf32>, tensor<i32>
  }
  %4 = sdy.data_flow_edge %3#1 : tensor<32x96xf32>
  %5 = sdy.data_flow_edge %3#2 : tensor<i32>
  return %4, %3#0 : tensor<32x96xf32>, !stablehlo.token
}
