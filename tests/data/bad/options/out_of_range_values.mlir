// A valid program driven with option values out of range: each is an error naming the option,
// never an uncaught exception.
// RUN: report %s -o - --collapse-depth 99999999999999999999
// RUN: run %s --max-steps 99999999999999999999
// RUN: run %s --max-steps -5
// RUN: run %s --max-tensor-bytes 0
// RUN: partition %s --max-devices abc
// RUN: interpret %s --max-steps 0
// RUN: serve --devices-per-rank 99999999999999999999
// RUN: serve --mpi-timeout nan
// RUN: serve --max-line-bytes -1
// UNLOCATED: option errors name the option, not a place in the program
// ERROR: error: .*(collapse-depth|max-steps|max-tensor-bytes|max-devices|devices-per-rank|mpi-timeout|max-line-bytes)
func.func @main() -> tensor<f32> {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
