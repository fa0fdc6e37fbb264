// jax jax/_src/lax/lax.py::_add_ur_rule ("lhs is unreduced while rhs is not. `add` operation does not allow this because there will be implicit communication"): adding a pending sum to an ordinary value is a ShardingTypeError.
// CLI-FAIL types: lhs is unreduced while rhs is not. `add` operation does not allow this because there will be implicit communication. Please reduce lhs via `reshard` before calling `add`.
module @m attributes {shardscope.axis_types = {mesh = {x = "explicit"}}} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                  %b: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                  %c: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<4x4xf32> {
    %p = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    %s = stablehlo.add %p, %c : tensor<4x4xf32>
    return %s : tensor<4x4xf32>
  }
}
