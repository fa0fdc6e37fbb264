// An op the interpreter does not know: the run stops at it with a located error.
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mydialect.frobnicate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
