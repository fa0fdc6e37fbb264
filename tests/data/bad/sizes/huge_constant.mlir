// A splat constant of 2^40 elements: one number in the text, four terabytes once expanded.
// RUN: run %s
// RUN: interpret %s
// ERROR: --max-tensor-bytes
func.func @main() -> tensor<1099511627776xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<1099511627776xf32>
  return %c : tensor<1099511627776xf32>
}
