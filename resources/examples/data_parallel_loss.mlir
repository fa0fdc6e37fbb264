// A batch data-parallel loss with replicated parameters and an unmapped output: the motivating
// example of the "efficient transposition of replication-inducing collectives" design doc. The
// batch of 32 examples is split over the 8 devices of "batch"; each device computes the mean
// squared error of its 4 examples, and pmean (psum, then divide by 8) makes the loss the same on
// every device, so out_specs=P() (unmapped) is legal: the value is device-invariant ({V:} empty).
// Its gradient is where the doc's efficiency problem appears; compare the two transpose rules:
//
//   shardscope-cli grad FILE --wrt inputs    efficient: 0 collectives, naive: 1 all-reduce
//   shardscope-cli grad FILE --wrt params    efficient: 1 all-reduce (the params' cotangent
//                                            must be summed), naive: 2
//
// The naive rule transposes psum to psum and runs an all-reduce of the (invariant) incoming
// cotangent; with device-variance types it becomes a no-op pbroadcast. @main_reference is the
// same loss on global values, for `run --check-reference`. The JAX source:
//
//   mesh = jax.make_mesh((8,), ("batch",))
//   @partial(shard_map, mesh=mesh, in_specs=(P(), P("batch", None), P("batch", None)),
//            out_specs=P())
//   def loss(params, inputs, targets):    # params: f32[8,4], inputs: f32[4,8], targets: f32[4,4]
//     predictions = jnp.tanh(inputs @ params)
//     local_loss = jnp.mean(jnp.sum((predictions - targets) ** 2, -1))
//     return jax.lax.pmean(local_loss, "batch")
//   jax.grad(loss)(params, inputs, targets)

sdy.mesh @mesh = <["batch"=8]>

func.func @main(%params: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
                %inputs: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>},
                %targets: tensor<32x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>})
    -> (tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>}) {
  %loss = sdy.manual_computation(%params, %inputs, %targets)
      in_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"batch"}, {}]>, <@mesh, [{"batch"}, {}]>]
      out_shardings=[<@mesh, []>]
      manual_axes={"batch"} (%p: tensor<8x4xf32>, %x: tensor<4x8xf32>, %t: tensor<4x4xf32>) {
    %z = stablehlo.dot_general %x, %p, contracting_dims = [1] x [0] :
      (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    %pred = stablehlo.tanh %z : tensor<4x4xf32>
    %err = stablehlo.subtract %pred, %t : tensor<4x4xf32>
    %sq = stablehlo.multiply %err, %err : tensor<4x4xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    // mean over the 4 local examples of their sums: the sum of all 16 squares, divided by 4.
    %total = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0, 1] :
      (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
    %four = stablehlo.constant dense<4.0> : tensor<f32>
    %local = stablehlo.divide %total, %four : tensor<f32>
    // pmean(local, "batch") = psum(local, "batch") / 8: one group of all 8 devices.
    %sum = "stablehlo.all_reduce"(%local) <{
        channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
        replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>,
        use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    %eight = stablehlo.constant dense<8.0> : tensor<f32>
    %mean = stablehlo.divide %sum, %eight : tensor<f32>
    sdy.return %mean : tensor<f32>
  } : (tensor<8x4xf32>, tensor<32x8xf32>, tensor<32x4xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// The same loss on global values: the mean over all 32 examples of the per-example sums.
func.func @main_reference(%params: tensor<8x4xf32>, %inputs: tensor<32x8xf32>,
                          %targets: tensor<32x4xf32>) -> tensor<f32> {
  %z = stablehlo.dot_general %inputs, %params, contracting_dims = [1] x [0] :
    (tensor<32x8xf32>, tensor<8x4xf32>) -> tensor<32x4xf32>
  %pred = stablehlo.tanh %z : tensor<32x4xf32>
  %err = stablehlo.subtract %pred, %targets : tensor<32x4xf32>
  %sq = stablehlo.multiply %err, %err : tensor<32x4xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %total = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0, 1] :
    (tensor<32x4xf32>, tensor<f32>) -> tensor<f32>
  %n = stablehlo.constant dense<32.0> : tensor<f32>
  %mean = stablehlo.divide %total, %n : tensor<f32>
  return %mean : tensor<f32>
}
