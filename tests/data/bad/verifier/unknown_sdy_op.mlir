// an op Shardy does not define (sdy.all_broadcast is not one of its collectives)
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{unregistered operation 'sdy.all_broadcast' found in dialect ('sdy') that does not allow unknown operations}}
  %0 = "sdy.all_broadcast"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
