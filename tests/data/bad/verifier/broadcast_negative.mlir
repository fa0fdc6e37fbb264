// broadcast (TypeInference.cpp inferBroadcastOp): broadcast sizes are non-negative
func.func @main(%a: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{Broadcast with negative dimension size -2}}
  %0 = "stablehlo.broadcast"(%a) {broadcast_sizes = array<i64: -2>} : (tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
