// CHLO ops in the pretty forms JAX prints (jax.scipy.special.erfinv, jax.lax.top_k), between
// sharded StableHLO ops. They load; propagation has no rule for them and says so once per op
// kind; the interpreter cannot run them and says so.
module @jit_f attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>} loc("x")) -> (tensor<8xf32>, tensor<2xf32>) {
    %0 = stablehlo.abs %arg0 : tensor<8xf32> loc("jit(f)/abs"("examples/special.py":3:8))
    %1 = chlo.erf_inv %0 : tensor<8xf32> -> tensor<8xf32> loc("jit(f)/erf_inv"("examples/special.py":4:8))
    %2 = stablehlo.negate %1 : tensor<8xf32> loc("jit(f)/neg"("examples/special.py":5:8))
    %3:2 = chlo.top_k(%2, k = 2) : tensor<8xf32> -> (tensor<2xf32>, tensor<2xi32>) loc("jit(f)/top_k"("examples/special.py":6:8))
    return %2, %3#0 : tensor<8xf32>, tensor<2xf32> loc(unknown)
  }
}
