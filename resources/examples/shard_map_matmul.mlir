// A shard_map (sdy.manual_computation) matmul whose contracting dimension is split: the basic
// matmul of the shard_map design doc ("shmap (shard_map) for simple per-device code",
// `matmul_basic`), with a tanh after it. On a 4x2 mesh each device gets a 2x8 block of `x` (rows
// over "data", columns over "model") and the matching 8x8 row block of `w`, so its product is
// only a partial sum over its 8 of the 16 contracted columns. The psum over "model" (written as
// the all_reduce JAX lowers it to, one group per "data" row of the mesh) adds the two partial
// sums; after it the value no longer varies over "model" ({V:data}), which is what the out spec
// P("data", None) asserts and the replication check verifies. Inside the body the types are the
// per-device shapes. @main_reference computes the same on global values, so
// `shardscope-cli run FILE --check-reference` compares every device's block with it.
// The JAX source:
//
//   mesh = jax.make_mesh((4, 2), ("data", "model"))
//   @jax.jit
//   @partial(shard_map, mesh=mesh, in_specs=(P("data", "model"), P("model", None)),
//            out_specs=P("data", None))
//   def layer(x_block, w_block):            # x_block: f32[2,8], w_block: f32[8,8]
//     partial_sum = x_block @ w_block       # f32[2,8], a different partial sum per "model" device
//     return jnp.tanh(jax.lax.psum(partial_sum, "model"))

sdy.mesh @mesh = <["data"=4, "model"=2]>

func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>},
                %w: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) {
  %y = sdy.manual_computation(%x, %w)
      in_shardings=[<@mesh, [{"data"}, {"model"}]>, <@mesh, [{"model"}, {}]>]
      out_shardings=[<@mesh, [{"data"}, {}]>]
      manual_axes={"data", "model"} (%x_block: tensor<2x8xf32>, %w_block: tensor<8x8xf32>) {
    %partial = stablehlo.dot_general %x_block, %w_block, contracting_dims = [1] x [0] :
      (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
    // psum(partial, "model"): device (d, m) has id 2*d + m, so the groups are the mesh rows.
    %sum = "stablehlo.all_reduce"(%partial) <{
        channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
        replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>,
        use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %act = stablehlo.tanh %sum : tensor<2x8xf32>
    sdy.return %act : tensor<2x8xf32>
  } : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// The same layer on global values, unsharded: what `run --check-reference` compares with.
func.func @main_reference(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %xw = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] :
    (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %y = stablehlo.tanh %xw : tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
