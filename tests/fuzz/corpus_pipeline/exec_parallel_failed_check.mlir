// A run_parallel whose all_gather result is checked against a wrong expectation.
func.func @gather(%x: tensor<2xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64,
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @main() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %r:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@gather], [@gather]]}
      : (tensor<2xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %good = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %bad = stablehlo.constant dense<[1.0, 2.0, 3.5, 4.0]> : tensor<4xf32>
  "check.expect_almost_eq"(%r#0, %good) : (tensor<4xf32>, tensor<4xf32>) -> ()
  "check.expect_almost_eq"(%r#1, %bad) : (tensor<4xf32>, tensor<4xf32>) -> ()
  return
}
