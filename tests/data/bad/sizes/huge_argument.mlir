// An argument of 2^31 f32 elements (8 GiB): refused before any of it is allocated.
// RUN: run %s
// ERROR: needs 8589934592 bytes.*--max-tensor-bytes
func.func @main(%arg0: tensor<2147483648xf32>) -> tensor<2147483648xf32> {
  return %arg0 : tensor<2147483648xf32>
}
