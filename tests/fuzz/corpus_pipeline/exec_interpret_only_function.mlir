// StableHLO's entry-function rule: without `@main`, the module's only function runs. Its result
// is printed as the reference interpreter prints tensors: 1 + 2 = 3 in each element.
func.func @add_op_test() -> tensor<2xi32> {
  %0 = stablehlo.constant dense<[1, -1]> : tensor<2xi32>
  %1 = stablehlo.constant dense<[2, 4]> : tensor<2xi32>
  %2 = stablehlo.add %0, %1 : tensor<2xi32>
  check.expect_eq_const %2, dense<[3, 3]> : tensor<2xi32>
  return %2 : tensor<2xi32>
}
