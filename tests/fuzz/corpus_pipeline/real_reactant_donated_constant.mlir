// source: https://github.com/EnzymeAD/Reactant.jl/pull/947 (description by avik-pal, 2025-03-18: a donated, sharded argument and a constant result)
module @reactant_fn attributes {mhlo.num_partitions = 8 : i64, mhlo.num_replicas = 1 : i64} {
  sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
  func.func @main(%arg0: tensor<2x2x2xf64> {reactant.donated, sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {"y"}, {"x"}]>}) -> (tensor<2x2x2xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {"y"}, {"x"}]>}) {
    %cst = stablehlo.constant dense<[[[0.63084595408749855, 0.94852621203725684], [0.37331956478281025, 0.55284767325502948]], [[0.62904737184899251, 0.71429285082865546], [0.51198077904593264, 0.26607778955478978]]]> : tensor<2x2x2xf64>
    return %cst : tensor<2x2x2xf64>
  }
}
