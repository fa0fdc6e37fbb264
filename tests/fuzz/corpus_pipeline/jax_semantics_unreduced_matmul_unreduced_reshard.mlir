// jax tests/shard_map_test.py::ShardMapTest::test_matmul_unreduced: out_specs=P('x', None, unreduced={'y'}), then jax.sharding.reshard(out, P('x', None)) == a @ b.
// NUMPY: r[0] = a[0] @ a[1]
// CLI partition: sdy.all_reduce
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg1: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.manual_computation(%arg0, %arg1)
      in_shardings=[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {}]>]
      out_shardings=[<@mesh, [{"x"}, {}], unreduced={"y"}>]
      manual_axes={"x", "y"} (%a: tensor<1x2xf32>, %b: tensor<2x2xf32>) {
    %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
    sdy.return %c : tensor<1x2xf32>
  } : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  %1 = sdy.reshard %0 <@mesh, [{"x"}, {}]> : tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
}
