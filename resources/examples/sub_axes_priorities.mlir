// Shardy sub-axes, priorities and open/closed dimensions, from Shardy's sharding representation
// doc. Splitting the 16 features of `x` (sharded over "model"=4) into 2 heads of 8 cannot keep
// "model" on one dimension: 4 devices don't fit 2 heads. Propagation splits the axis instead, the
// doc's "axis splitting": the heads take the major sub-axis "model":(1)2 and each head's 8
// features the minor one "model":(2)2, so the reshape moves no data.
//
// A per-head scale, sharded over "model" along its 8 features, disagrees: multiplying it in asks
// for head features on the full "model" axis. Priorities decide: dimensions propagate in rounds
// p0 (the default: the batch on "data"), then p1 (the features of `x`), then p2 (the scale's),
// and a later round cannot override what an earlier one fixed. So the sub-axes win and only the
// small scale is resharded (`shardscope-cli partition FILE`: 24 B per device). Swap p1 and p2
// and the scale wins: `x` is resharded after the reshape instead (96 B). `shardscope-cli explain
// FILE --value y` shows which annotation each value's sharding came from.
//
// Open dimensions ({?}) may be further sharded by propagation, closed ones may not: the result's
// open head dimensions receive the sub-axes. Closing them ({}), as a JAX NamedSharding must since
// it cannot express sub-axes, makes the partitioner all-gather the result before returning it.
// The JAX source (priorities are Shardy's; JAX itself writes every annotation at p0):
//
//   mesh = jax.make_mesh((2, 4), ("data", "model"))
//   @jax.jit
//   def scale_heads(x, scale):          # x: P("data", "model"), scale: P(None, "model")
//     heads = x.reshape(8, 2, 8)        # [batch, heads, head features]
//     return jnp.tanh(heads * scale)

sdy.mesh @mesh = <["data"=2, "model"=4]>

func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}p1]>},
                %scale: tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model", ?}p2]>})
    -> (tensor<8x2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {?}, {?}]>}) {
  %heads = stablehlo.reshape %x : (tensor<8x16xf32>) -> tensor<8x2x8xf32>
  %s = stablehlo.broadcast_in_dim %scale, dims = [1, 2] : (tensor<2x8xf32>) -> tensor<8x2x8xf32>
  %y = stablehlo.multiply %heads, %s : tensor<8x2x8xf32>
  %out = stablehlo.tanh %y : tensor<8x2x8xf32>
  return %out : tensor<8x2x8xf32>
}
