// source: https://github.com/EnzymeAD/Reactant.jl/issues/2675 (description by dkytezab, 2026-03-16: the first module, l = 128)
module @reactant_func attributes {mhlo.num_partitions = 4 : i64, mhlo.num_replicas = 1 : i64} {
  sdy.mesh @mesh = <["x"=4, "y"=1]>
  func.func @main(%arg0: tensor<128xf32> {enzymexla.memory_effects = [], sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) attributes {enzymexla.memory_effects = []} {
    return
  }
}
