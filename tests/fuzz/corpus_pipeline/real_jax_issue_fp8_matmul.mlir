// source: https://github.com/jax-ml/jax/issues/22270 (description by balancap, 2024-07-04: jax.stages.Lowered text of an FP8 matmul)
module @jit_matmul_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x128xf8E4M3FN> {mhlo.layout_mode = "default"}, %arg1: tensor<128x128xf8E5M2> {mhlo.layout_mode = "default"}) -> (tensor<128x128xf8E5M2> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E5M2>) -> tensor<128x128xf8E5M2>
    return %0 : tensor<128x128xf8E5M2>
  }
}
