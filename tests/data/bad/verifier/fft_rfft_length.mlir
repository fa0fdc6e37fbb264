// fft (TypeInference.cpp inferFftOp): RFFT's innermost dimensions are fft_length
func.func @main(%a: tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{RFFT requires innermost dimensions to be compatible with fft_length. Got: 3, 8 but wanted 9.}}
  %0 = "stablehlo.fft"(%a) {fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 9>} : (tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>>
  return %0 : tensor<3x5xcomplex<f32>>
}
