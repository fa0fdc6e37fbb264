// The design's motivating example: a batch data parallel loss with replicated parameters,
//
//   @partial(shmap, mesh=Mesh(devices, ('batch',)), in_specs=(P(None, None), P('batch', None),
//            P('batch', None)), out_specs=P())
//   def loss(params, inputs, targets):
//     predictions = jnp.tanh(inputs @ params)
//     local_loss = jnp.mean(jnp.sum((predictions - targets) ** 2, -1))
//     return lax.pmean(local_loss, 'batch')
//
// on 8 devices, in f64 so that finite differences are precise. pmean is psum / 8.
sdy.mesh @mesh = <["batch"=8]>

func.func @loss(%params: tensor<16x16xf64>, %inputs: tensor<32x16xf64>, %targets: tensor<32x16xf64>) -> tensor<f64> {
  %l = sdy.manual_computation(%params, %inputs, %targets) in_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"batch"}, {}]>, <@mesh, [{"batch"}, {}]>] out_shardings=[<@mesh, []>] manual_axes={"batch"} (%p: tensor<16x16xf64>, %x: tensor<4x16xf64>, %t: tensor<4x16xf64>) {
    %z = stablehlo.dot_general %x, %p, contracting_dims = [1] x [0] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
    %pred = stablehlo.tanh %z : tensor<4x16xf64>
    %d = stablehlo.subtract %pred, %t : tensor<4x16xf64>
    %sq = stablehlo.multiply %d, %d : tensor<4x16xf64>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %rows = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x16xf64>, tensor<f64>) -> tensor<4xf64>
    %total = stablehlo.reduce(%rows init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4xf64>, tensor<f64>) -> tensor<f64>
    %four = stablehlo.constant dense<4.000000e+00> : tensor<f64>
    %local = stablehlo.divide %total, %four : tensor<f64>
    %sum = "stablehlo.all_reduce"(%local) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      %s = stablehlo.add %a, %b : tensor<f64>
      stablehlo.return %s : tensor<f64>
    }) : (tensor<f64>) -> tensor<f64>
    %eight = stablehlo.constant dense<8.000000e+00> : tensor<f64>
    %mean = stablehlo.divide %sum, %eight : tensor<f64>
    sdy.return %mean : tensor<f64>
  } : (tensor<16x16xf64>, tensor<32x16xf64>, tensor<32x16xf64>) -> tensor<f64>
  return %l : tensor<f64>
}
