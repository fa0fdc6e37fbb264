// source: https://github.com/EnzymeAD/Reactant.jl/pull/798 (review comment by avik-pal, 2025-02-23, deps/ReactantExtra/API.cpp: the module that hit "'sdy.reshard' op unknown mesh")
module @reactant_fn attributes {mhlo.num_partitions = 8 : i64, mhlo.num_replicas = 1 : i64} {
  sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
  func.func @main(%arg0: tensor<2x2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {}, {"x"}]>}) -> tensor<2x2x4xf32> {
    %0 = sdy.reshard %arg0 <@mesh, [{}, {}, {}]> : tensor<2x2x4xf32>
    return %0 : tensor<2x2x4xf32>
  }
}
