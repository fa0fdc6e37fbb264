// RUN: opt %s -verify-diagnostics
// ERROR: offset points outside the file
// expected-error@-9223372036854775807 {{never reported}}
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
