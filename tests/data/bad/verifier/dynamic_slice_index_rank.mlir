// dynamic_slice's start indices are 0D integer tensors (HLO_ScalarIntTensor)
func.func @main(%arg0: tensor<4xf32>, %i: tensor<1xi32>) -> tensor<2xf32> {
  // expected-error@+1 {{'stablehlo.dynamic_slice' op operand #1 must be 0D tensor of 2/4/8/16/32/64-bit integer values, but got 'tensor<1xi32>'}}
  %0 = "stablehlo.dynamic_slice"(%arg0, %i) {slice_sizes = array<i64: 2>} : (tensor<4xf32>, tensor<1xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
