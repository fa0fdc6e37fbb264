// a typed-FFI custom call (api_version 4) takes a dictionary backend_config
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'stablehlo.custom_call' op backend_config for api_version API_VERSION_TYPED_FFI must be a dictionary attribute.}}
  %0 = "stablehlo.custom_call"(%a) {api_version = 4 : i32, backend_config = "x=1", call_target_name = "my_kernel"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
