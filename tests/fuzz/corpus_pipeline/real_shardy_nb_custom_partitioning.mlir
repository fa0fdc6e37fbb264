// source: openxla/shardy docs/getting_started_jax.ipynb @ a0277a83e7f84d40075be0d71a131cb71d806ff6 (output of code cell 44: custom_partitioning example, lowered with jax_use_shardy_partitioner)
module @jit__unnamed_wrapped_function attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<4x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xi32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
    %0 = stablehlo.custom_call @CustomSPMDPartitioning(%arg0, %arg1) {api_version = 2 : i32, backend_config = "126939381919824", sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i])->([i]) {i=4, j=2}, custom>} : (tensor<4x2xi32>, tensor<8xi32>) -> tensor<8xi32>
    return %0 : tensor<8xi32>
  }
}
