// source: jax-ml/jax docs/aot.md @ cec06d116c05f0d52adfceee3d3b730fdbcb0ce5 (print(lowered_with_x.as_text()), lines 145-151)
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i32>) -> (tensor<i32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<14> : tensor<i32>
    %0 = stablehlo.add %c, %arg0 : tensor<i32>
    return %0 : tensor<i32>
  }
}
