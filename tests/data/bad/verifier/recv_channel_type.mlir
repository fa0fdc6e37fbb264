// recv_c1 (TypeInference.cpp verifyRecvOp): a device-to-device receive has a DEVICE_TO_DEVICE channel
func.func @main(%token: !stablehlo.token) -> tensor<3x4xi32> {
  // expected-error@+1 {{channel_type should be DEVICE_TO_DEVICE when is_host_transfer is false}}
  %0:2 = "stablehlo.recv"(%token) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 3>} : (!stablehlo.token) -> (tensor<3x4xi32>, !stablehlo.token)
  return %0#0 : tensor<3x4xi32>
}
