// A GSPMD program whose second sharding cannot be read: its tile assignment names 12 devices
// ([4,3]) but its iota holds 8. The first still imports; the second is a located warning and its
// value is shown unsharded, never dropped in silence.
module @jit_f attributes {mhlo.num_partitions = 8 : i32} {
  func.func public @main(%arg0: tensor<16x128xf32> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"},
                         %arg1: tensor<16x128xf32> {mhlo.sharding = "{devices=[4,3]<=[8]}"}) -> tensor<16x128xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<16x128xf32>
    return %0 : tensor<16x128xf32>
  }
}
