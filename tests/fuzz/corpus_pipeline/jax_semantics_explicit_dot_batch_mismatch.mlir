// jax jax/_src/lax/lax.py::_dot_general_sharding_rule: batch dims sharded differently on lhs and rhs raise "dot_general requires lhs batch dimensions and rhs batch dimensions to have the same sharding".
// CLI-FAIL types: dot_general requires lhs batch dimensions and rhs batch dimensions to have the same sharding, got ('X',) and (None,).
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2]>
  func.func @main(%a: tensor<2x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}, {}]>},
                  %b: tensor<2x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}) -> tensor<2x4x4xf32> {
    %d = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
    return %d : tensor<2x4x4xf32>
  }
}
