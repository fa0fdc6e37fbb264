// send_c1 (TypeInference.cpp inferSendOp): a host transfer sends on a DEVICE_TO_HOST channel
func.func @main(%a: tensor<2x2xi64>, %token: !stablehlo.token) -> !stablehlo.token {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{channel_type should be DEVICE_TO_HOST when is_host_transfer is true}}
  %0 = "stablehlo.send"(%a, %token) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, is_host_transfer = true} : (tensor<2x2xi64>, !stablehlo.token) -> !stablehlo.token
  return %0 : !stablehlo.token
}
