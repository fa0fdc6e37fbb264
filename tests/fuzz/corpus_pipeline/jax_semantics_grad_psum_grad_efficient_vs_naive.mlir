// jax docs/jep/17111-shmap-transpose.md (Example 1: f1 = shmap(lambda x: psum(g(x), 'i'), P('i'), P())): with the efficient rules the transpose of psum is a free pbroadcast, the naive rules all-reduce the cotangent.
// NUMPY: r[0] = np.sin(a[0]).sum()
// CLI grad --wrt 0: efficient   0 collectives
// CLI grad --wrt 0: naive       1 collective
sdy.mesh @mesh = <["i"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}]>}) -> (tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}]>] out_shardings=[<@mesh, []>] manual_axes={"i"} (%a: tensor<2xf32>) {
    %s = stablehlo.sine %a : tensor<2xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %r = stablehlo.reduce(%s init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %p = "stablehlo.all_reduce"(%r) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%u: tensor<f32>, %v: tensor<f32>):
      %w = stablehlo.add %u, %v : tensor<f32>
      stablehlo.return %w : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    sdy.return %p : tensor<f32>
  } : (tensor<8xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
