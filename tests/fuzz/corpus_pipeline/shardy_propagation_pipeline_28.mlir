sdy.mesh @mesh_a_2_b_2 = <["a"=2, "b"=2]>
sdy.mesh @mesh_a_2_b_2_c_2 = <["a"=2, "b"=2, "c"=2]>

func.func @while_body_non_func_operand_result_use(%arg0: tensor<32x96xf32>) -> tensor<32x96xf32> {
  %0 = sdy.constant dense<0> : tensor<i32>
  %1 = sdy.constant dense<1> : tensor<i32>
  %2 = sdy.constant dense<32> : tensor<i32>
  %3 = stablehlo.add %arg0, %arg0 : tensor<32x96xf32>
  %4:2 = stablehlo.while(%iterArg = %3, %iterArg_0 = %0) : tensor<32x96xf32>, tensor<i32>
    cond {
    %6 = stablehlo.compare  LT, %iterArg_0, %2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %6 : tensor<i1>
  } do {
    %6 = stablehlo.add %iterArg_0, %1 : tensor<i32>
    %7 = stablehlo.add %iterArg, %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a_2_b_2, [{"a"}, {"b"}]>]>} : tensor<32x96xf32>
    stablehlo.return %7, %6 : tensor<32x96xf32>, tensor<i32>
  }
  %5 = stablehlo.add %4#0, %4#0 : tensor<32x96xf32>
  return %5 : tensor<32x96xf32>
}
