// bitcast_convert_c1 (TypeInference.cpp verifyBitcastConvertOp): narrower elements add one minor dimension that covers the wider element
func.func @main(%a: tensor<4xf32>) -> tensor<4x3xf16> {
  // expected-error@+1 {{requires compatible bit widths. Got: 'tensor<4xf32>' and 'tensor<4x3xf16>', but 16 * 3 != 32.}}
  %0 = "stablehlo.bitcast_convert"(%a) : (tensor<4xf32>) -> tensor<4x3xf16>
  return %0 : tensor<4x3xf16>
}
