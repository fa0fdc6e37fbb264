// recv_c4 (TypeInference.cpp verifyRecvOp): the last result is the token
func.func @main(%token: !stablehlo.token) -> tensor<3x4xi32> {
  // expected-error@+1 {{last element of result types is expected to be of token type, but got 'tensor<i32>'}}
  %0:2 = "stablehlo.recv"(%token) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (!stablehlo.token) -> (tensor<3x4xi32>, tensor<i32>)
  return %0#0 : tensor<3x4xi32>
}
