// Pin turns a tensor into a buffer: its output is a memref (CustomCallOp::verifyKnownCustomCalls)
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'stablehlo.custom_call' op Pin custom_call should have a memref output}}
  %0 = "stablehlo.custom_call"(%a) {call_target_name = "Pin", api_version = 4 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
