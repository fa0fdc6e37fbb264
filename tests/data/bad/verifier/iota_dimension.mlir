// iota_c1 (TypeInference.cpp verifyIotaOp): the iota dimension indexes the result
func.func @main() -> tensor<4x8xi32> {
  // expected-error@+1 {{iota dimension cannot go beyond the output rank.}}
  %0 = stablehlo.iota dim = 2 : tensor<4x8xi32>
  return %0 : tensor<4x8xi32>
}
