sdy.mesh @mesh_a_2_b_2 = <["a"=2, "b"=2]>
sdy.mesh @mesh_a_2_b_2_c_2 = <["a"=2, "b"=2, "c"=2]>

func.func @case_not_func_args_or_directly_returned(
  %arg0: tensor<i32>,
  %arg1: tensor<8xi64> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"a"}]>},
  %arg2: tensor<8xi64> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"a", "b"}]>}
  ) -> tensor<8xi64> {
  %0 = stablehlo.add %arg1, %arg1 : tensor<8xi64>
  %1 = stablehlo.add %arg2, %arg2 : tensor<8xi64>
  %2 = "stablehlo.case"(%arg0) ({
    stablehlo.return %0 : tensor<8xi64>
  }, {
    stablehlo.return %1 : tensor<8xi64>
  }) : (tensor<i32>) -> tensor<8xi64>
  %3 = sdy.data_flow_edge %2 : tensor<8xi64>
  %4 = stablehlo.add %3, %3 :  tensor<8xi64>
  return %4 : tensor<8xi64>
}
