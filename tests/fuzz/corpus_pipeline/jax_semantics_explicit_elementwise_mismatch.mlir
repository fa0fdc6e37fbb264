// jax jax/_src/lax/lax.py::broadcasting_sharding_rule: operands of an elementwise op sharded differently on an explicit mesh are refused with JAX's "... got incompatible shardings for broadcasting" error.
// CLI-FAIL types: incompatible shardings for broadcasting
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=2]>
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                  %b: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"Y"}, {}]>}) -> tensor<8x4xf32> {
    %s = stablehlo.add %a, %b : tensor<8x4xf32>
    return %s : tensor<8x4xf32>
  }
}
