// source: jax-ml/jax docs/export/export.md @ cec06d116c05f0d52adfceee3d3b730fdbcb0ce5 (print(jax.jit(new_prim.bind).lower(1.).compiler_ir()), lines 212-217)
module @jit_bind attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<f32>) -> (tensor<f32> {jax.result_info = "result"}) {
    %0 = stablehlo.custom_call @my_new_prim(%arg0) {api_version = 2 : i32, backend_config = ""} : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
}
