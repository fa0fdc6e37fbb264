// A dimension size that does not fit in 64 bits: it was read as 0 (an empty tensor) in silence.
// ERROR: does not fit in 64 bits
func.func @main(%arg0: tensor<99999999999999999999xf32>) -> tensor<99999999999999999999xf32> {
  return %arg0 : tensor<99999999999999999999xf32>
}
