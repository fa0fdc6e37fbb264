// A slice of a rank-2 operand with one start index.
// RUN: transpose %s --linear-in 0
// ERROR: start_indices|slice
func.func @main(%x: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %s = "stablehlo.slice"(%x) {start_indices = array<i64: 0>, limit_indices = array<i64: 4>, strides = array<i64: 1>} : (tensor<8x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
