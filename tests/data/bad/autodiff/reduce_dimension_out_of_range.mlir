// A sum over dimension 4 of a rank-1 operand.
// RUN: grad %s --wrt 0
// ERROR: dimension|reduce
func.func @main(%x: tensor<4xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [4] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %s : tensor<f32>
}
