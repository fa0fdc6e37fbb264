// A 64-device pod: 8 hosts of 8 chips ("hosts"=8, "chips"=8; device (h, c) has id 8*h + c), as
// `mpirun --hostfile` lays it out with one rank per host. A two-layer MLP, data parallel over
// hosts and tensor parallel over chips (Megatron style): the first layer's weight is split by
// columns and the second's by rows, so the second dot_general leaves partial sums over "chips"
// that partitioning reduces inside each host, and the batch mean reduces across all hosts.
sdy.mesh @mesh = <["hosts"=8, "chips"=8]>

func.func @main(
    %x: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"hosts"}, {}]>},
    %w1: tensor<32x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"chips"}]>},
    %w2: tensor<128x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"chips"}, {}]>})
    -> (tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"hosts"}, {}]>},
        tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0]
      : (tensor<64x32xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
  %a = stablehlo.tanh %h : tensor<64x128xf32>
  %y = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0]
      : (tensor<64x128xf32>, tensor<128x32xf32>) -> tensor<64x32xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%y init: %zero) applies stablehlo.add across dimensions = [0]
      : (tensor<64x32xf32>, tensor<f32>) -> tensor<32xf32>
  %n = stablehlo.constant dense<64.0> : tensor<32xf32>
  %mean = stablehlo.divide %sum, %n : tensor<32xf32>
  return %y, %mean : tensor<64x32xf32>, tensor<32xf32>
}
