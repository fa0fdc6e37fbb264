// jax jax/_src/lax/lax.py::broadcasting_sharding_rule: an unsharded operand dim takes the other operand's sharding; f32[8@X,4] + f32[8,4] is f32[8@X,4].
// CLI types: %s  f32[8@X,4]
// CLI types: rejected by JAX: 0 ops
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2]>
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                  %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %s = stablehlo.add %a, %b : tensor<8x4xf32>
    return %s : tensor<8x4xf32>
  }
}
