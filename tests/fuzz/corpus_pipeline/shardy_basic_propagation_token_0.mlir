sdy.mesh @mesh_a_2_b_2 = <["a"=2, "b"=2]>

func.func @func_token_arg_skipped(%arg0: !stablehlo.token) -> !stablehlo.token {
  return %arg0 : !stablehlo.token
}
