// source: openxla/shardy docs/getting_started_jax.ipynb @ a0277a83e7f84d40075be0d71a131cb71d806ff6 (output of code cell 12: run_in_out_shardings(), jax.jit(predict).lower(...).as_text() with GSPMD)
module @jit_predict attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x128xf8E4M3FN> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"}, %arg1: tensor<128x256xf8E4M3FN> {mhlo.sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"}, %arg2: tensor<256x10xf8E4M3FN>) -> (tensor<16x10xf8E4M3FN> {jax.result_info = ""}) {
    %0 = stablehlo.tanh %arg0 : tensor<16x128xf8E4M3FN>
    %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x128xf8E4M3FN>, tensor<128x256xf8E4M3FN>) -> tensor<16x256xf8E4M3FN>
    %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x256xf8E4M3FN>, tensor<256x10xf8E4M3FN>) -> tensor<16x10xf8E4M3FN>
    %3 = stablehlo.sine %2 : tensor<16x10xf8E4M3FN>
    return %3 : tensor<16x10xf8E4M3FN>
  }
}
