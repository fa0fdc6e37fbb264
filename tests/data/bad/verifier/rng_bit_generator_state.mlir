// rng_bit_generator_c2 (TypeInference.cpp verifyRngBitGeneratorOp): the output state has the initial state's shape
func.func @main(%s: tensor<2xui64>) -> tensor<4xui32> {
  // expected-error@+1 {{output state shape must be compatible with initial state shape. Got: 'tensor<2xui64>' and 'tensor<3xui64>'}}
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm DEFAULT>} : (tensor<2xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  return %0#1 : tensor<4xui32>
}
