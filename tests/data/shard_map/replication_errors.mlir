// shard_maps that JAX rejects with its static replication check (check_vma): each returns a value
// that varies over a manual axis its out_specs leave out.
//
//   f4:           shmap(lambda x: all_gather(x, 'i'), P('i'), P())     # Example 4: read as
//                 all_gather_invariant (same StableHLO; the only reading JAX's check accepts)
//   f3_no_psum:   f3 of the shard_map design without its psum over 'j'
//   f5_only_i:    f5 of the shard_map design with a psum over 'i' only
//   axis_index:   shmap(lambda: axis_index('i'), in_specs=(), out_specs=P())
//   two_outputs:  shmap(lambda x: (x, x + 1), P('i'), (P(), P('i')))
//   both_outputs: shmap(lambda x: (x, x + 1), P('i'), (P(), P()))
sdy.mesh @mesh8 = <["i"=8]>
sdy.mesh @mesh = <["i"=4, "j"=2]>

func.func @f4(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = sdy.manual_computation(%x) in_shardings=[<@mesh8, [{"i"}]>] out_shardings=[<@mesh8, [{}]>] manual_axes={"i"} (%xb: tensor<1xf32>) {
    %yb = "stablehlo.all_gather"(%xb) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : (tensor<1xf32>) -> tensor<8xf32>
    sdy.return %yb : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

func.func @f3_no_psum(%x: tensor<12x12xf32>) -> tensor<12x6xf32> {
  %y = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"i"}, {"j"}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i", "j"} (%x_block: tensor<3x6xf32>) {
    sdy.return %x_block : tensor<3x6xf32>
  } : (tensor<12x12xf32>) -> tensor<12x6xf32>
  return %y : tensor<12x6xf32>
}

func.func @f5_only_i(%x: tensor<12x12xf32>) -> tensor<3x6xf32> {
  %y = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"i"}, {"j"}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"i", "j"} (%x_block: tensor<3x6xf32>) {
    %s = "stablehlo.all_reduce"(%x_block) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %sum = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %sum : tensor<f32>
    }) : (tensor<3x6xf32>) -> tensor<3x6xf32>
    sdy.return %s : tensor<3x6xf32>
  } : (tensor<12x12xf32>) -> tensor<3x6xf32>
  return %y : tensor<3x6xf32>
}

func.func @axis_index() -> tensor<ui32> {
  %r = sdy.manual_computation() in_shardings=[] out_shardings=[<@mesh8, []>] manual_axes={"i"} () {
    %id = stablehlo.partition_id : tensor<ui32>
    sdy.return %id : tensor<ui32>
  } : () -> tensor<ui32>
  return %r : tensor<ui32>
}

func.func @two_outputs(%x: tensor<8xf32>) -> (tensor<1xf32>, tensor<8xf32>) {
  %r:2 = sdy.manual_computation(%x) in_shardings=[<@mesh8, [{"i"}]>] out_shardings=[<@mesh8, [{}]>, <@mesh8, [{"i"}]>] manual_axes={"i"} (%xb: tensor<1xf32>) {
    %one = stablehlo.constant dense<1.000000e+00> : tensor<1xf32>
    %x1 = stablehlo.add %xb, %one : tensor<1xf32>
    sdy.return %xb, %x1 : tensor<1xf32>, tensor<1xf32>
  } : (tensor<8xf32>) -> (tensor<1xf32>, tensor<8xf32>)
  return %r#0, %r#1 : tensor<1xf32>, tensor<8xf32>
}

func.func @both_outputs(%x: tensor<8xf32>) -> (tensor<1xf32>, tensor<1xf32>) {
  %r:2 = sdy.manual_computation(%x) in_shardings=[<@mesh8, [{"i"}]>] out_shardings=[<@mesh8, [{}]>, <@mesh8, [{}]>] manual_axes={"i"} (%xb: tensor<1xf32>) {
    %one = stablehlo.constant dense<1.000000e+00> : tensor<1xf32>
    %x1 = stablehlo.add %xb, %one : tensor<1xf32>
    sdy.return %xb, %x1 : tensor<1xf32>, tensor<1xf32>
  } : (tensor<8xf32>) -> (tensor<1xf32>, tensor<1xf32>)
  return %r#0, %r#1 : tensor<1xf32>, tensor<1xf32>
}
