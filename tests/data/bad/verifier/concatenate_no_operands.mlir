// concatenate takes at least one operand (SameOperandsAndResultElementType)
func.func @main() -> tensor<2xi32> {
  // expected-error@+1 {{'stablehlo.concatenate' op expected 1 or more operands, but found 0}}
  %0 = "stablehlo.concatenate"() {dimension = 0 : i64} : () -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
