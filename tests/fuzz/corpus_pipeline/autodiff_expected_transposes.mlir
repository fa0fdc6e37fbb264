// Transposes written by hand from the "efficient transpose" design's text (Example 5), on the
// same mesh as tests/data/shard_map/transpose_examples.mlir.
sdy.mesh @mesh = <["i"=8]>

// t(f5, 0) = shmap(lambda y, wbar: psum_scatter(wbar * y, 'i'), (P('i'), P('i')), P('i'))
func.func @f5_transpose(%y: tensor<64xf32>, %wbar: tensor<64xf32>) -> tensor<8xf32> {
  %xbar = sdy.manual_computation(%y, %wbar) in_shardings=[<@mesh, [{"i"}]>, <@mesh, [{"i"}]>] out_shardings=[<@mesh, [{"i"}]>] manual_axes={"i"} (%yb: tensor<8xf32>, %wb: tensor<8xf32>) {
    %zb = stablehlo.multiply %wb, %yb : tensor<8xf32>
    %xb = "stablehlo.reduce_scatter"(%zb) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %sum = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %sum : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<1xf32>
    sdy.return %xb : tensor<1xf32>
  } : (tensor<64xf32>, tensor<64xf32>) -> tensor<8xf32>
  return %xbar : tensor<8xf32>
}

// t(t(f5, 0)) is f5 again, with the non-linear argument y first:
// shmap(lambda y, x: all_gather(x, 'i') * y, (P('i'), P('i')), P('i'))
func.func @f5_twice(%y: tensor<64xf32>, %x: tensor<8xf32>) -> tensor<64xf32> {
  %w = sdy.manual_computation(%y, %x) in_shardings=[<@mesh, [{"i"}]>, <@mesh, [{"i"}]>] out_shardings=[<@mesh, [{"i"}]>] manual_axes={"i"} (%yb: tensor<8xf32>, %xb: tensor<1xf32>) {
    %z = "stablehlo.all_gather"(%xb) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : (tensor<1xf32>) -> tensor<8xf32>
    %wb = stablehlo.multiply %z, %yb : tensor<8xf32>
    sdy.return %wb : tensor<8xf32>
  } : (tensor<64xf32>, tensor<8xf32>) -> tensor<64xf32>
  return %w : tensor<64xf32>
}
