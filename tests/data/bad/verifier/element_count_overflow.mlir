// no StableHLO rule: a static shape whose element count overflows int64 can not be sized by any stage
// (the parser refuses the type before the verifier sees it)
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{tensor type has more elements than fit in 64 bits}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [3] : (tensor<4xf32>) -> tensor<4294967296x4294967296x2x4xf32>
  return %a : tensor<4xf32>
}
