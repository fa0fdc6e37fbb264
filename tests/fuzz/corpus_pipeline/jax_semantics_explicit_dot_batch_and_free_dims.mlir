// jax jax/_src/lax/lax.py::_dot_general_sharding_computation: the result is batch specs, then lhs free dims, then rhs free dims; contracting dims sharded on one side only are allowed.
// CLI types: f32[2@X,4@Y,4]
// CLI types: rejected by JAX: 0 ops
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=2]>
  func.func @main(%a: tensor<2x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}, {}]>},
                  %b: tensor<2x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}, {}]>}) -> tensor<2x4x4xf32> {
    %d = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
    return %d : tensor<2x4x4xf32>
  }
}
