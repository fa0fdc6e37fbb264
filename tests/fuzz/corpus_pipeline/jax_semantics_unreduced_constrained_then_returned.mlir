// jax tests/shard_map_test.py::ShardMapTest::test_matmul_full_unreduced_out (out_specs=P(unreduced={'x'})), then with_sharding_constraint keeping it unreduced and a replicated return: one reduction, at the return.
// NUMPY: r[0] = a[0] @ a[1]
// CLI partition: sdy.all_reduce
sdy.mesh @mesh = <["x"=2, "y"=1]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                %arg1: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = sdy.manual_computation(%arg0, %arg1)
      in_shardings=[<@mesh, [{}, {"x"}]>, <@mesh, [{"x"}, {}]>]
      out_shardings=[<@mesh, [{}, {}], unreduced={"x"}>]
      manual_axes={"x"} (%a: tensor<8x2xf32>, %b: tensor<2x6xf32>) {
    %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x2xf32>, tensor<2x6xf32>) -> tensor<8x6xf32>
    sdy.return %c : tensor<8x6xf32>
  } : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {}], unreduced={"x"}> : tensor<8x6xf32>
  return %1 : tensor<8x6xf32>
}
