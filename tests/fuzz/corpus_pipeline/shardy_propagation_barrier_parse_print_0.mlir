sdy.mesh @mesh = <["a"=2,"b"=2]>

func.func @backward(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @backward_with_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD {sdy.sharding=#sdy.sharding_per_value<[<@mesh, [{"a",?}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @forward(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=FORWARD : tensor<8xf32>
  return %0 : tensor<8xf32>
}


func.func @none(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<8xf32>
  return %0 : tensor<8xf32>
}
