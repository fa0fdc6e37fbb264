// interpreter.run_parallel takes as many inputs as its programs together (InterpreterOps.cpp
// RunParallelOp::verify)
func.func @double(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %x, %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @main() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  // expected-error@+1 {{Number of inputs (2) should match the sum of the number of inputs of all programs (1)}}
  %0 = "interpreter.run_parallel"(%a, %a) {programs = [[@double]]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}
