// A mesh whose device count (2^40 * 2^40) does not fit in 64 bits.
// ERROR: more devices than fit in 64 bits
sdy.mesh @mesh = <["x"=1099511627776, "y"=1099511627776]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
