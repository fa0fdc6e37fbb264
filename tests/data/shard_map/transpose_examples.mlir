// Examples 1-5 of the "efficient transposition of replication-inducing collectives" design, on
// one mesh axis 'i' of 8 devices, written as they lower to StableHLO. `pbroadcast` (pvary) lowers
// to nothing, so the analysis has to find where JAX would insert it. g is a sum (Example 1) or a
// negation (Example 2); `all_gather_invariant` lowers to the same HLO as `all_gather`: the
// out_specs of f4 leave only the invariant reading, and the analysis takes it.
//
//   Example 1: f1 = shmap(lambda x: psum(g(x), 'i'), in_specs=P('i'), out_specs=P())
//              t(f1) = shmap(lambda ybar: t(g)(pbroadcast(ybar, 'i')), P(), P('i'))
//   Example 2: f2 = shmap(lambda x, y: psum(g(x), 'i') * y, (P('i'), P('i')), P('i'))
//              t(f2, 0) = shmap(lambda y, zbar: t(g)(psum(zbar * y, 'i')), (P('i'), P('i')), P('i'))
//   Example 3: cursed_identity = shmap(lambda x: x, P(), P())
//              its old transpose: shmap(lambda x: psum(x / 8, 'i'), P(), P())
//   Example 4: f4 = shmap(lambda x: all_gather_invariant(x, 'i'), P('i'), P())
//              old t(f4) = shmap(lambda ybar: psum_scatter(ybar / 8, 'i'), P(), P('i'))
//   Example 5: f5 = shmap(lambda x, y: all_gather(x, 'i') * y, (P('i'), P('i')), P('i'))
sdy.mesh @mesh = <["i"=8]>

func.func @f1(%x: tensor<24x4xf32>) -> tensor<f32> {
  %y = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, []>] manual_axes={"i"} (%xb: tensor<3x4xf32>) {
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %w = stablehlo.reduce(%xb init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<f32>
    %yb = "stablehlo.all_reduce"(%w) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %sum = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %sum : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    sdy.return %yb : tensor<f32>
  } : (tensor<24x4xf32>) -> tensor<f32>
  return %y : tensor<f32>
}

func.func @f1_transpose(%ybar: tensor<f32>) -> tensor<24x4xf32> {
  %xbar = sdy.manual_computation(%ybar) in_shardings=[<@mesh, []>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i"} (%yb: tensor<f32>) {
    %wbar = stablehlo.broadcast_in_dim %yb, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    sdy.return %wbar : tensor<3x4xf32>
  } : (tensor<f32>) -> tensor<24x4xf32>
  return %xbar : tensor<24x4xf32>
}

func.func @f2(%x: tensor<16xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %z = sdy.manual_computation(%x, %y) in_shardings=[<@mesh, [{"i"}]>, <@mesh, [{"i"}]>] out_shardings=[<@mesh, [{"i"}]>] manual_axes={"i"} (%xb: tensor<2xf32>, %yb: tensor<2xf32>) {
    %gx = stablehlo.negate %xb : tensor<2xf32>
    %p = "stablehlo.all_reduce"(%gx) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %sum = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %sum : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    %zb = stablehlo.multiply %p, %yb : tensor<2xf32>
    sdy.return %zb : tensor<2xf32>
  } : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %z : tensor<16xf32>
}

func.func @f2_transpose(%y: tensor<16xf32>, %zbar: tensor<16xf32>) -> tensor<16xf32> {
  %xbar = sdy.manual_computation(%y, %zbar) in_shardings=[<@mesh, [{"i"}]>, <@mesh, [{"i"}]>] out_shardings=[<@mesh, [{"i"}]>] manual_axes={"i"} (%yb: tensor<2xf32>, %zb: tensor<2xf32>) {
    %prod = stablehlo.multiply %zb, %yb : tensor<2xf32>
    %p = "stablehlo.all_reduce"(%prod) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %sum = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %sum : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    %xb = stablehlo.negate %p : tensor<2xf32>
    sdy.return %xb : tensor<2xf32>
  } : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %xbar : tensor<16xf32>
}

func.func @cursed_identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = sdy.manual_computation(%x) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"i"} (%xb: tensor<4xf32>) {
    sdy.return %xb : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @cursed_identity_old_transpose(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = sdy.manual_computation(%x) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"i"} (%xb: tensor<4xf32>) {
    %eight = stablehlo.constant dense<8.000000e+00> : tensor<4xf32>
    %scaled = stablehlo.divide %xb, %eight : tensor<4xf32>
    %p = "stablehlo.all_reduce"(%scaled) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %sum = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %sum : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %p : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @f4(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"i"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"i"} (%xb: tensor<1xf32>) {
    %yb = "stablehlo.all_gather"(%xb) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : (tensor<1xf32>) -> tensor<8xf32>
    sdy.return %yb : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

func.func @f4_old_transpose(%ybar: tensor<8xf32>) -> tensor<8xf32> {
  %xbar = sdy.manual_computation(%ybar) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{"i"}]>] manual_axes={"i"} (%yb: tensor<8xf32>) {
    %eight = stablehlo.constant dense<8.000000e+00> : tensor<8xf32>
    %scaled = stablehlo.divide %yb, %eight : tensor<8xf32>
    %xb = "stablehlo.reduce_scatter"(%scaled) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %sum = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %sum : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<1xf32>
    sdy.return %xb : tensor<1xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %xbar : tensor<8xf32>
}

func.func @f5(%x: tensor<8xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %w = sdy.manual_computation(%x, %y) in_shardings=[<@mesh, [{"i"}]>, <@mesh, [{"i"}]>] out_shardings=[<@mesh, [{"i"}]>] manual_axes={"i"} (%xb: tensor<1xf32>, %yb: tensor<8xf32>) {
    %z = "stablehlo.all_gather"(%xb) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : (tensor<1xf32>) -> tensor<8xf32>
    %wb = stablehlo.multiply %z, %yb : tensor<8xf32>
    sdy.return %wb : tensor<8xf32>
  } : (tensor<8xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %w : tensor<64xf32>
}
