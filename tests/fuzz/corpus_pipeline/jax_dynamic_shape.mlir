// A shape-polymorphic export (`jax.export` with `b` symbolic): the batch dimension is dynamic.
// It loads and prints back; partitioning and running it need static shapes.
#loc1 = loc("x")
module @jit_f attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2]> loc(#loc)
  func.func public @main(%arg0: tensor<?x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>} loc("x")) -> (tensor<?x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.abs %arg0 : tensor<?x4xf32> loc(#loc3)
    return %0 : tensor<?x4xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("examples/poly.py":5:11)
#loc3 = loc("jit(f)/abs"(#loc2))
