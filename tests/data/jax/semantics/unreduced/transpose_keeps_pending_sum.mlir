// jax jax/_src/lax/lax.py::_transpose_sharding_rule with transpose's unreduced rule passing the operand's unreduced axes through: the transpose of a pending sum is still pending, typed f32[4,4]{U:x}, and is summed exactly once by the reshard.
// NUMPY: r[0] = (a[0] @ a[1]).T
// CLI types: %t  f32[4,4]{U:x}  stablehlo.transpose
// CLI types: rejected by JAX: 0 ops
module @m attributes {shardscope.axis_types = {mesh = {x = "explicit"}}} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                  %b: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<4x4xf32> {
    %p = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    %t = stablehlo.transpose %p, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %r = sdy.reshard %t <@mesh, [{}, {}]> : tensor<4x4xf32>
    return %r : tensor<4x4xf32>
  }
}
