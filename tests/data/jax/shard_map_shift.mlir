// A program in the form `jax.jit(f).lower(x).as_text()` prints with debug info: location aliases
// before the module and after it (used before their definition), name locations wrapping
// call-site chains, argument names as locations, and a `dense_resource` constant whose blob is in
// the file's dialect_resources section (0.5, 1.0, 1.5, 2.0 as little-endian f32 after 4 bytes of
// alignment). f(x) = shard_map(lambda b: ppermute(b, perm=[(0, 1), (1, 0)]) + offsets)(x).
#loc1 = loc("x")
#loc2 = loc("examples/shift.py":12:8 to :40)
#loc3 = loc("examples/shift.py":20:4 to :16)
#loc4 = loc("examples/shift.py":8:11 to :52)
#loc5 = loc("f"(#loc2))
#loc6 = loc("<module>"(#loc3))
#loc7 = loc("f.<locals>.body"(#loc4))
#loc8 = loc(callsite(#loc5 at #loc6))
module @jit_f attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2]> loc(#loc)
  func.func public @main(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>} loc("x")) -> (tensor<2x4xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<1x4xf32> loc("shard_map:"(#loc11))) {
      %1 = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<1x4xf32>) -> tensor<1x4xf32> loc(#loc13)
      %cst = stablehlo.constant dense_resource<offsets> : tensor<1x4xf32> loc(#loc15)
      %2 = stablehlo.add %1, %cst : tensor<1x4xf32> loc(#loc17)
      sdy.return %2 : tensor<1x4xf32> loc(#loc12)
    } : (tensor<2x4xf32>) -> tensor<2x4xf32> loc(#loc12)
    return %0 : tensor<2x4xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc9 = loc(callsite(#loc7 at #loc8))
#loc10 = loc("jit(f)/shard_map"(#loc8))
#loc11 = loc("jit(f)/shard_map"(#loc8))
#loc12 = loc("shard_map:"(#loc10))
#loc13 = loc("ppermute:"(#loc14))
#loc14 = loc("jit(f)/shard_map/ppermute"(#loc9))
#loc15 = loc("jit(f)/shard_map/broadcast_in_dim"(#loc9))
#loc16 = loc("jit(f)/shard_map/add"(#loc9))
#loc17 = loc("add:"(#loc16))

{-#
  dialect_resources: {
    builtin: {
      offsets: "0x040000000000003F0000803F0000C03F00000040"
    }
  }
#-}
