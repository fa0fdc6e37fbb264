// A tensor type whose element count (2^32 * 2^32) overflows int64.
// RUN: run %s
// RUN: interpret %s
// ERROR: 64 bits|overflow|too large
func.func @main() -> tensor<4294967296x4294967296xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<4294967296x4294967296xf32>
  return %c : tensor<4294967296x4294967296xf32>
}
