// source: https://github.com/EnzymeAD/Reactant.jl/pull/637 (comment by avik-pal, 2025-01-31: the module Reactant.jl emits for a sharded predict function)
module @reactant_predict attributes {mhlo.num_partitions = 8 : i64, mhlo.num_replicas = 1 : i64} {
  sdy.mesh @mesh = <["model"=2, "data"=4]>
  func.func @main(%arg0: tensor<12x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}p0, {?}p0]>}, %arg1: tensor<3x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}p0, {"model"}p0]>}, %arg2: tensor<4x2xf32>) -> tensor<12x2xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<12x3xf32>
    %1 = stablehlo.dot_general %arg1, %0, contracting_dims = [0] x [1] : (tensor<3x4xf32>, tensor<12x3xf32>) -> tensor<4x12xf32>
    %2 = stablehlo.dot_general %arg2, %1, contracting_dims = [0] x [0] : (tensor<4x2xf32>, tensor<4x12xf32>) -> tensor<2x12xf32>
    %3 = stablehlo.sine %2 : tensor<2x12xf32>
    %4 = stablehlo.transpose %3, dims = [1, 0] : (tensor<2x12xf32>) -> tensor<12x2xf32>
    return %4 : tensor<12x2xf32>
  }
}
