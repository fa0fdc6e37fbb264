// A valid mesh of a million devices: partitioning and running it would take minutes and gigabytes,
// so the device limit refuses it up front (--max-devices raises the limit).
// RUN: partition %s
// RUN: run %s
// RUN: check %s
// RUN: inspect %s --value arg0
// RUN: report %s -o - --format json
// RUN: run %s --max-devices 65536
// ERROR: 1000000 devices.*--max-devices
sdy.mesh @mesh = <["x"=1000, "y"=1000]>
func.func @main(%arg0: tensor<1000x1000xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<1000x1000xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<1000x1000xf32>
  return %0 : tensor<1000x1000xf32>
}
