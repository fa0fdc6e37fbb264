// jax jax/_src/lax/parallel.py::_all_gather_transpose_rule (all_gather transposes to psum_scatter over the same axis) and docs/jep/17111-shmap-transpose.md: an all_gather whose result stays varying (out_specs P('x')) is read as all_gather, and its transpose is a reduce_scatter, not a local slice.
// NUMPY: r[0] = np.tile(a[0], 4)
// CLI check: all_gather over 'x'
// CLI-NOT check: all_gather_invariant
// CLI transpose --linear-in 0: "stablehlo.reduce_scatter"(
// CLI-NOT transpose --linear-in 0: stablehlo.dynamic_slice
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
    %1 = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}
