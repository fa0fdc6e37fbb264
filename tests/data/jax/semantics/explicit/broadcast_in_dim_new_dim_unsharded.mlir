// jax jax/_src/lax/lax.py::_broadcast_in_dim_sharding_rule (operand dim i keeps its spec at broadcast_dimensions[i]; new dims get None): f32[8@X] broadcast to (8, 4) along dim 0 is f32[8@X,4].
// NUMPY: r[0] = np.broadcast_to(a[0][:, None], (8, 4))
// CLI types: f32[8@X,4]
// CLI types: rejected by JAX: 0 ops
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=2]>
  func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}]>}) -> tensor<8x4xf32> {
    %b = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
    return %b : tensor<8x4xf32>
  }
}
