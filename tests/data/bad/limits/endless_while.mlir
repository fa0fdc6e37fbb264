// A while loop whose condition is always true: the step limit stops it with a located error.
// (The default limit, 10 million ops, takes longer than this suite's time bound in a Debug build.)
// RUN: run %s --max-steps 20000
// RUN: interpret %s --max-steps 20000
// RUN: run %s --max-steps=5000 --check-reference
// ERROR: step limit
func.func @main() -> tensor<i64> {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %r = stablehlo.while(%i = %c0) : tensor<i64>
    cond {
      %t = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %t : tensor<i1>
    } do {
      %n = stablehlo.add %i, %c1 : tensor<i64>
      stablehlo.return %n : tensor<i64>
    }
  return %r : tensor<i64>
}
