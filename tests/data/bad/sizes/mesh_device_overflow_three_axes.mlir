// Three axes whose product overflows int64 only at the last one.
// ERROR: more devices than fit in 64 bits
sdy.mesh @mesh = <["a"=4294967296, "b"=1024, "c"=4194304]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
