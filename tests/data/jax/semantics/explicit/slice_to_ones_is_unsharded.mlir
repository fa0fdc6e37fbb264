// jax jax/_src/lax/slicing.py::_get_sharding_for_varying_out_shape (`if not out_shape or all(o == 1 for o in out_shape): return NamedSharding(mesh, P())`): one element sliced out of f32[8@X] is f32[1], unsharded, not a divisibility error.
// NUMPY: r[0] = a[0][5:6]
// CLI types: f32[1]
// CLI types: rejected by JAX: 0 ops
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=2]>
  func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}]>}) -> tensor<1xf32> {
    %s = stablehlo.slice %a [5:6] : (tensor<8xf32>) -> tensor<1xf32>
    return %s : tensor<1xf32>
  }
}
