// jax jax/_src/lax/parallel.py::_reduce_scatter_transpose_rule (psum_scatter transposes to all_gather over the same axis): the transpose of a tiled psum_scatter is a tiled all_gather.
// NUMPY: r[0] = a[0].reshape(4, 8).sum(axis=0)
// CLI transpose --linear-in 0: stablehlo.all_gather
// CLI-NOT transpose --linear-in 0: "stablehlo.reduce_scatter"(
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<8xf32>) {
    %1 = "stablehlo.reduce_scatter"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %t = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<32xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
