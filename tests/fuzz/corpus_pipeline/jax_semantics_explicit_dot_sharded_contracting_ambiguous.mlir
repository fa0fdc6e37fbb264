// jax jax/_src/lax/lax.py::_dot_general_sharding_rule: both contracting dims sharded on an explicit axis and no out_sharding is ambiguous; JAX raises its ShardingTypeError.
// CLI-FAIL types: Contracting dimensions are sharded and it is ambiguous how the output should be sharded. Please specify the output sharding via the `out_sharding` parameter. Got lhs_contracting_spec=('X',) and rhs_contracting_spec=('X',)
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2]>
  func.func @main(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"X"}]>},
                  %b: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>}) -> tensor<4x4xf32> {
    %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    return %d : tensor<4x4xf32>
  }
}
