// A globally sharded function (no shard_map): the partitioner inserts the collectives, of the
// function and of its gradient alike. The sharding constraint transposes to the same constraint
// on the cotangent.
sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%w: tensor<8x8xf64> {sdy.sharding = #sdy.sharding<@mesh, [{}, {?}]>}, %x: tensor<8x8xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<f64> {
  %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x8xf64>, tensor<8x8xf64>) -> tensor<8x8xf64>
  %c = sdy.sharding_constraint %h <@mesh, [{?}, {"y"}]> : tensor<8x8xf64>
  %t = stablehlo.tanh %c : tensor<8x8xf64>
  %zero = stablehlo.constant dense<128.000000e+0> : tensor<f64>
  %s = stablehlo.reduce(%t init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8xf64>, tensor<f64>) -> tensor<f64>
  return %s : tensor<f64>
}
