// `--args` must match the entry function's signature: one tensor<2xi32> is expected here.
func.func @main(%arg0: tensor<2xi32>) -> tensor<2xi32> {
  return %arg0 : tensor<2xi32>
}
