// jax jax/_src/lax/parallel.py (pmax_p registers no JVP or transpose rule) and jax/_src/interpreters/ad.py ("Differentiation rule for '{primitive}' not implemented"): grad through a pmax fails in JAX's words, located at the all_reduce; the forward value is the elementwise max over the devices.
// NUMPY: r[0] = np.array(a[0].reshape(4, 2).max(axis=0).sum())
// CLI check: pmax over 'x'
// CLI-FAIL grad --wrt 0: Differentiation rule for 'pmax' not implemented
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, []>] manual_axes={"x"} (%a: tensor<2xf32>) {
    %m = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %t = stablehlo.maximum %p, %q : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    sdy.return %s : tensor<f32>
  } : (tensor<8xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
