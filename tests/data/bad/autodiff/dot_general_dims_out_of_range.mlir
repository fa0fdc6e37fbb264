// A dot_general contracting dimension 5 of a rank-2 operand: transposing it must refuse the op,
// not index the operand's shape with 5.
// RUN: transpose %s --linear-in 0
// RUN: grad %s --wrt 0
// ERROR: dot_general|contracting|dimension
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<f32> {
  %y = stablehlo.dot_general %x, %w, contracting_dims = [5] x [0] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  return %s : tensor<f32>
}
