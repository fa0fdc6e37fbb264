// source: openxla/shardy docs/getting_started_jax.ipynb @ a0277a83e7f84d40075be0d71a131cb71d806ff6 (output of code cell 19: run_with_sharding_constraint() with jax_use_shardy_partitioner)
module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=4, "model"=2]>
  func.func public @main(%arg0: tensor<32x64xf32>) -> (tensor<32x64xf32> {jax.result_info = ""}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"data"}, {?}]> : tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
