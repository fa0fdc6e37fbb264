// A program too large to run: its argument is 70000 * 70000 * 4 = 19600000000 bytes (about
// 19.6 GB), more than the 4 GiB (4294967296 bytes) a run may allocate per tensor. Its shardings
// and graph need no tensor data.
sdy.mesh @mesh = <["x"=2]>

func.func @main(%arg0: tensor<70000x70000xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<70000x70000xf32> {
  %0 = stablehlo.negate %arg0 : tensor<70000x70000xf32>
  return %0 : tensor<70000x70000xf32>
}
