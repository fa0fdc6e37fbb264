// jax jax/_src/lax/lax.py::_add_ur_rule (two inputs unreduced over the same axes add to a value unreduced over them) and docs/notebooks/explicit-sharding.md (dot_general with out_sharding=P(None, None, unreduced={'x'})): two pending sums are added without communication and reduced once by the reshard.
// NUMPY: r[0] = a[0] @ a[1] + a[2] @ a[3]
// CLI types: %s  f32[4,4]{U:x}  stablehlo.add
// CLI types: %r  f32[4,4]       sdy.reshard
// CLI types: rejected by JAX: 0 ops
module @m attributes {shardscope.axis_types = {mesh = {x = "explicit"}}} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                  %b: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                  %c: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                  %d: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<4x4xf32> {
    %p = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    %q = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    %s = stablehlo.add %p, %q : tensor<4x4xf32>
    %r = sdy.reshard %s <@mesh, [{}, {}]> : tensor<4x4xf32>
    return %r : tensor<4x4xf32>
  }
}
