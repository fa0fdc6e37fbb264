// jax tests/shard_map_test.py::ShardMapTest::test_matmul_reduce_scatter, written as an unreduced out_spec resharded to P(('x', 'y'), None): the sum lands scattered over rows.
// NUMPY: r[0] = a[0] @ a[1]
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %0 = sdy.manual_computation(%arg0, %arg1)
      in_shardings=[<@mesh, [{}, {"y"}]>, <@mesh, [{"y"}, {}]>]
      out_shardings=[<@mesh, [{}, {}], unreduced={"y"}>]
      manual_axes={"y"} (%a: tensor<8x4xf32>, %b: tensor<4x4xf32>) {
    %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
    sdy.return %c : tensor<8x4xf32>
  } : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = sdy.reshard %0 <@mesh, [{"x", "y"}, {}]> : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
