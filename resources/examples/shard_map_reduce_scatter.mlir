// A reduce-scatter matmul: the shard_map design doc's second matmul (`matmul_reduce_scatter`,
// "another matmul variant with a fully sharded result"). The blocks are those of
// shard_map_matmul.mlir: on a 4x2 mesh each device multiplies its 2x8 block of `x` with the
// matching 8x8 row block of `w` and holds a partial sum. Instead of a psum, which would leave
// both "model" devices with the same 2x8 sum, psum_scatter adds the partial sums and leaves each
// "model" device with only its own 2x4 column half of the result (a stablehlo.reduce_scatter
// over "model", scatter dimension 1). The result is then sharded over both axes,
// P("data", "model"), and each device sends half of what the psum's all-reduce sends.
// @main_reference computes the same on global values for `run --check-reference`.
// The JAX source:
//
//   mesh = jax.make_mesh((4, 2), ("data", "model"))
//   @jax.jit
//   @partial(shard_map, mesh=mesh, in_specs=(P("data", "model"), P("model", None)),
//            out_specs=P("data", "model"))
//   def matmul_reduce_scatter(x_block, w_block):   # x_block: f32[2,8], w_block: f32[8,8]
//     partial_sum = x_block @ w_block               # f32[2,8]
//     return jax.lax.psum_scatter(partial_sum, "model", scatter_dimension=1, tiled=True)  # f32[2,4]

sdy.mesh @mesh = <["data"=4, "model"=2]>

func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>},
                %w: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) {
  %y = sdy.manual_computation(%x, %w)
      in_shardings=[<@mesh, [{"data"}, {"model"}]>, <@mesh, [{"model"}, {}]>]
      out_shardings=[<@mesh, [{"data"}, {"model"}]>]
      manual_axes={"data", "model"} (%x_block: tensor<2x8xf32>, %w_block: tensor<8x8xf32>) {
    %partial = stablehlo.dot_general %x_block, %w_block, contracting_dims = [1] x [0] :
      (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
    // psum_scatter over "model": device (d, m) has id 2*d + m, so the groups are the mesh rows;
    // device m of a group keeps columns [4m, 4m + 4) of the sum.
    %block = "stablehlo.reduce_scatter"(%partial) <{
        channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
        replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>,
        scatter_dimension = 1 : i64, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2x8xf32>) -> tensor<2x4xf32>
    sdy.return %block : tensor<2x4xf32>
  } : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// The same matmul on global values, unsharded: what `run --check-reference` compares with.
func.func @main_reference(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] :
    (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
