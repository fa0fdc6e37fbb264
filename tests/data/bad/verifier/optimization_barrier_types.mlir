// optimization_barrier (StablehloOps.td HLO_PairwiseSameOperandAndResultType): each result has its operand's type
func.func @main(%a: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'stablehlo.optimization_barrier' op requires the same type for operand and result at index 0}}
  %0 = "stablehlo.optimization_barrier"(%a) : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
