// A slice past the end of its operand.
// RUN: transpose %s --linear-in 0
// ERROR: slice|bounds|limit
func.func @main(%x: tensor<8xf32>) -> tensor<4xf32> {
  %s = "stablehlo.slice"(%x) {start_indices = array<i64: 6>, limit_indices = array<i64: 14>, strides = array<i64: 2>} : (tensor<8xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
