// The shard_map seed's examples on its 4x2 mesh ('i', 'j'), each with a `_reference` function that
// computes the same on global values (the unsharded program the per-device run is checked with):
//
//   matmul_basic:          psum(a_block @ b_block, 'j')                       -> P('i', None)
//   matmul_reduce_scatter: psum_scatter(a_block @ b_block, 'j', dim 1, tiled) -> P('i', 'j')
//   ring_shift:            ppermute(x_block, 'i', [(k, (k+1) % 4)])           -> P('i')
sdy.mesh @mesh = <["i"=4, "j"=2]>

func.func @matmul_basic(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %c = sdy.manual_computation(%a, %b) in_shardings=[<@mesh, [{"i"}, {"j"}]>, <@mesh, [{"j"}, {}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i", "j"} (%a_block: tensor<2x8xf32>, %b_block: tensor<8x32xf32>) {
    %z_partialsum = stablehlo.dot_general %a_block, %b_block, contracting_dims = [1] x [0] : (tensor<2x8xf32>, tensor<8x32xf32>) -> tensor<2x32xf32>
    %z_block = "stablehlo.all_reduce"(%z_partialsum) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %sum = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %sum : tensor<f32>
    }) : (tensor<2x32xf32>) -> tensor<2x32xf32>
    sdy.return %z_block : tensor<2x32xf32>
  } : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %c : tensor<8x32xf32>
}

func.func @matmul_basic_reference(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %c : tensor<8x32xf32>
}

func.func @matmul_reduce_scatter(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %c = sdy.manual_computation(%a, %b) in_shardings=[<@mesh, [{"i"}, {"j"}]>, <@mesh, [{"j"}, {}]>] out_shardings=[<@mesh, [{"i"}, {"j"}]>] manual_axes={"i", "j"} (%a_block: tensor<2x8xf32>, %b_block: tensor<8x32xf32>) {
    %c_partialsum = stablehlo.dot_general %a_block, %b_block, contracting_dims = [1] x [0] : (tensor<2x8xf32>, tensor<8x32xf32>) -> tensor<2x32xf32>
    %c_block = "stablehlo.reduce_scatter"(%c_partialsum) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %sum = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %sum : tensor<f32>
    }) : (tensor<2x32xf32>) -> tensor<2x16xf32>
    sdy.return %c_block : tensor<2x16xf32>
  } : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %c : tensor<8x32xf32>
}

func.func @matmul_reduce_scatter_reference(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %c : tensor<8x32xf32>
}

// Device (i, j) has id 2*i + j: shifting along 'i' sends device d to device (d + 2) % 8.
func.func @ring_shift(%x: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %r = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i", "j"} (%x_block: tensor<2x2xi32>) {
    %shifted = "stablehlo.collective_permute"(%x_block) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 2], [2, 4], [4, 6], [6, 0], [1, 3], [3, 5], [5, 7], [7, 1]]> : tensor<8x2xi64>}> : (tensor<2x2xi32>) -> tensor<2x2xi32>
    sdy.return %shifted : tensor<2x2xi32>
  } : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %r : tensor<8x2xi32>
}

// jnp.roll(x, 2, axis=0): the last two rows come first.
func.func @ring_shift_reference(%x: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %tail = stablehlo.slice %x [6:8, 0:2] : (tensor<8x2xi32>) -> tensor<2x2xi32>
  %head = stablehlo.slice %x [0:6, 0:2] : (tensor<8x2xi32>) -> tensor<6x2xi32>
  %r = stablehlo.concatenate %tail, %head, dim = 0 : (tensor<2x2xi32>, tensor<6x2xi32>) -> tensor<8x2xi32>
  return %r : tensor<8x2xi32>
}

// A shard_map whose output claims to be replicated over 'j' (out_shardings P('i')) but whose
// value varies along 'j' (check_rep=False in JAX): the replica check must flag it.
func.func @unchecked_replication(%x: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %r = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i", "j"} (%x_block: tensor<2x2xi32>) {
    %p = stablehlo.partition_id : tensor<ui32>
    %q = stablehlo.convert %p : (tensor<ui32>) -> tensor<i32>
    %b = stablehlo.broadcast_in_dim %q, dims = [] : (tensor<i32>) -> tensor<2x2xi32>
    %y = stablehlo.add %x_block, %b : tensor<2x2xi32>
    sdy.return %y : tensor<2x2xi32>
  } : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %r : tensor<8x2xi32>
}

func.func @unchecked_replication_reference(%x: tensor<8x2xi32>) -> tensor<8x2xi32> {
  return %x : tensor<8x2xi32>
}
