// jax docs/notebooks/explicit-sharding.md (dot with contracting dims sharded, out_sharding=P(None, None, unreduced={'x'})), then reshard to P('x', None): a dot_general whose contracting dims are sharded on an explicit mesh produces a pending sum.
// NUMPY: r[0] = a[0] @ a[1] + 1.0
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %1 = sdy.reshard %0 <@mesh, [{"x"}, {}]> : tensor<4x4xf32>
  %c = stablehlo.constant dense<1.0> : tensor<4x4xf32>
  %2 = stablehlo.add %1, %c : tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}
