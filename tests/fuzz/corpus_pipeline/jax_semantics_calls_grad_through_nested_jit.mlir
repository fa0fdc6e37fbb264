// jax tests/shard_map_test.py::ShardMapTest::test_jit_inside_shard_map with jax.grad (a nested jax.jit lowers to func.call): the loss tanh -> sum -> psum lives in the callee; grad sees through the call and the psum transposes to a free pvary.
// NUMPY: r[0] = np.tanh(a[0]).sum()
// CLI grad --wrt 0: func.func @main_grad
// CLI grad --wrt 0: stablehlo.tanh
// CLI grad --wrt 0: efficient   0 collectives
// CLI check: psum over 'x'
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, []>] manual_axes={"x"} (%a: tensor<2xf32>) {
    %1 = func.call @loss(%a) : (tensor<2xf32>) -> tensor<f32>
    sdy.return %1 : tensor<f32>
  } : (tensor<8xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func private @loss(%b: tensor<2xf32>) -> tensor<f32> {
  %t = stablehlo.tanh %b : tensor<2xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%t init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
  %s = "stablehlo.all_reduce"(%r) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %u = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %u : tensor<f32>
  }) : (tensor<f32>) -> tensor<f32>
  return %s : tensor<f32>
}
