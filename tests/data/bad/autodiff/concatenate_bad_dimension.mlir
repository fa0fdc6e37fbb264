// A concatenate along dimension 3 of rank-1 operands.
// RUN: transpose %s --linear-in 0
// ERROR: dimension|concatenate
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<8xf32> {
  %c = stablehlo.concatenate %x, %y, dim = 3 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}
