// jax tests/shard_map_test.py::ShardMapTest::test_matmul_unreduced, resharded while still unreduced (P('x', 'y'... unreduced={'y'}) is illegal, so P(None, None, unreduced={'y'})) and used twice: the pending sum over 'y' is taken once per use, never twice.
// NUMPY: r[0] = 2 * (a[0] @ a[1])
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = sdy.manual_computation(%arg0, %arg1)
      in_shardings=[<@mesh, [{}, {"x"}]>, <@mesh, [{"x"}, {}]>]
      out_shardings=[<@mesh, [{}, {}], unreduced={"x"}>]
      manual_axes={"x"} (%a: tensor<8x4xf32>, %b: tensor<4x8xf32>) {
    %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    sdy.return %d : tensor<8x8xf32>
  } : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"y"}, {}], unreduced={"x"}> : tensor<8x8xf32>
  %2 = stablehlo.add %1, %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
