// rng's a and b are 0D tensors (StablehloOps.td: 0DTensorOf<[HLO_Pred, HLO_Int, HLO_Float]>)
func.func @main(%mu: tensor<1xf32>, %sigma: tensor<f32>) -> tensor<2x3xf32> {
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error@+1 {{'stablehlo.rng' op operand #0 must be 0D tensor of pred (AKA boolean or 1-bit integer) or 2/4/8/16/32/64-bit integer or floating-point values, but got 'tensor<1xf32>'}}
  %0 = "stablehlo.rng"(%mu, %sigma, %shape) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<1xf32>, tensor<f32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
