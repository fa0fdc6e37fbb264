// A mesh of 2^41 devices: its count fits in 64 bits, but a list of its devices would take 16 TiB.
// Every command that lays out devices refuses it up front instead of running out of memory.
// RUN: check %s
// RUN: inspect %s --value arg0
// RUN: report %s -o - --format json
// RUN: partition %s
// RUN: run %s
// ERROR: 2199023255552 devices.*--max-devices
sdy.mesh @mesh = <["x"=1099511627776, "y"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
