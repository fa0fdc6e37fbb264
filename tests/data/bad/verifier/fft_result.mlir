// fft (TypeInference.cpp inferFftOp): RFFT of length n keeps n / 2 + 1 complex values
func.func @main(%a: tensor<3x8xf32>) -> tensor<3x8xcomplex<f32>> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{'stablehlo.fft' op inferred type(s) 'tensor<3x5xcomplex<f32>>' are incompatible with return type(s) of operation 'tensor<3x8xcomplex<f32>>'}}
  %0 = "stablehlo.fft"(%a) {fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 8>} : (tensor<3x8xf32>) -> tensor<3x8xcomplex<f32>>
  return %0 : tensor<3x8xcomplex<f32>>
}
