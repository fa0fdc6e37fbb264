// A non-linear shard_map over 4 devices using every collective grad transposes, in f64 for
// finite-difference checks on the simulated mesh: all_gather, ppermute, psum_scatter,
// all_to_all, psum and all_gather_invariant, around dot_general, tanh, sine and a max reduction.
sdy.mesh @mesh = <["i"=4]>

func.func @mixed_collectives(%x: tensor<8x4xf64>, %w: tensor<4x4xf64>) -> tensor<f64> {
  %out = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{"i"}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, []>] manual_axes={"i"} (%xb: tensor<2x4xf64>, %wb: tensor<4x4xf64>) {
    %h = stablehlo.dot_general %xb, %wb, contracting_dims = [1] x [0] : (tensor<2x4xf64>, tensor<4x4xf64>) -> tensor<2x4xf64>
    %a = stablehlo.tanh %h : tensor<2x4xf64>
    %g = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2x4xf64>) -> tensor<8x4xf64>
    %p = "stablehlo.collective_permute"(%g) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8x4xf64>) -> tensor<8x4xf64>
    %m = stablehlo.multiply %p, %g : tensor<8x4xf64>
    %s = "stablehlo.reduce_scatter"(%m) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
    ^bb0(%a0: tensor<f64>, %b0: tensor<f64>):
      %sum0 = stablehlo.add %a0, %b0 : tensor<f64>
      stablehlo.return %sum0 : tensor<f64>
    }) : (tensor<8x4xf64>) -> tensor<8x1xf64>
    %t = "stablehlo.all_to_all"(%s) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<8x1xf64>) -> tensor<2x4xf64>
    %sn = stablehlo.sine %t : tensor<2x4xf64>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %r = stablehlo.reduce(%sn init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x4xf64>, tensor<f64>) -> tensor<f64>
    %ps = "stablehlo.all_reduce"(%r) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%a1: tensor<f64>, %b1: tensor<f64>):
      %sum1 = stablehlo.add %a1, %b1 : tensor<f64>
      stablehlo.return %sum1 : tensor<f64>
    }) : (tensor<f64>) -> tensor<f64>
    %rr = stablehlo.reshape %r : (tensor<f64>) -> tensor<1xf64>
    %gi = "stablehlo.all_gather"(%rr) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<1xf64>) -> tensor<4xf64>
    %ninf = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %mx = stablehlo.reduce(%gi init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<4xf64>, tensor<f64>) -> tensor<f64>
    %o = stablehlo.add %ps, %mx : tensor<f64>
    sdy.return %o : tensor<f64>
  } : (tensor<8x4xf64>, tensor<4x4xf64>) -> tensor<f64>
  return %out : tensor<f64>
}
