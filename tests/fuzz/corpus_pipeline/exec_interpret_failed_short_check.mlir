// A failing short-form check: 2 * 3 is 6, not 7.
func.func @main() {
  %0 = stablehlo.constant dense<2> : tensor<i8>
  %1 = stablehlo.constant dense<3> : tensor<i8>
  %2 = stablehlo.multiply %0, %1 : tensor<i8>
  check.expect_eq_const %2, dense<7> : tensor<i8>
  func.return
}
