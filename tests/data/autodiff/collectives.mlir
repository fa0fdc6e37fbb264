// Linear manual computations with each collective JAX's shard_map can transpose, on a mesh of 4
// devices, for the transpose rules of the "efficient transpose" design.
sdy.mesh @mesh = <["i"=4]>

// ppermute: each block moves to the next device; its transpose moves it back.
func.func @ring(%x: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %y = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i"} (%xb: tensor<2x2xf32>) {
    %p = "stablehlo.collective_permute"(%xb) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
    sdy.return %p : tensor<2x2xf32>
  } : (tensor<8x2xf32>) -> tensor<8x2xf32>
  return %y : tensor<8x2xf32>
}

// all_to_all: split dim 1, concat dim 0; its transpose splits dim 0 and concatenates dim 1.
func.func @a2a(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %y = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, [{}, {"i"}]>] manual_axes={"i"} (%xb: tensor<2x8xf32>) {
    %a = "stablehlo.all_to_all"(%xb) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<2x8xf32>) -> tensor<8x2xf32>
    sdy.return %a : tensor<8x2xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// psum_scatter: transposes to all_gather (varying).
func.func @scatter(%x: tensor<16xf32>) -> tensor<4xf32> {
  %y = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"i"}]>] out_shardings=[<@mesh, [{"i"}]>] manual_axes={"i"} (%xb: tensor<4xf32>) {
    %s = "stablehlo.reduce_scatter"(%xb) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %sum = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %sum : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<1xf32>
    sdy.return %s : tensor<1xf32>
  } : (tensor<16xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// An invariant x meets a varying y: x is implicitly pbroadcast, so its cotangent (varying) is
// psum'med back to an invariant one.
func.func @mixed(%x: tensor<4xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %z = sdy.manual_computation(%x, %y) in_shardings=[<@mesh, [{}]>, <@mesh, [{"i"}]>] out_shardings=[<@mesh, [{"i"}]>] manual_axes={"i"} (%xb: tensor<4xf32>, %yb: tensor<4xf32>) {
    %n = stablehlo.negate %xb : tensor<4xf32>
    %m = stablehlo.multiply %n, %yb : tensor<4xf32>
    sdy.return %m : tensor<4xf32>
  } : (tensor<4xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %z : tensor<16xf32>
}
