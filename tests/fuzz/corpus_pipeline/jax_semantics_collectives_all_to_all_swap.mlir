// jax tests/shard_map_test.py::ShardMapTest::test_all_to_all (all_to_all(x, 'x', split_axis=1, concat_axis=0, tiled=True)): rows sharded on 'x' become columns sharded on 'x'; the global value is unchanged.
// NUMPY: r[0] = a[0]
// CLI check: all_to_all over 'x'
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {"x"}]>] manual_axes={"x"} (%a: tensor<2x4xf32>) {
    %1 = "stablehlo.all_to_all"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<2x4xf32>) -> tensor<4x2xf32>
    sdy.return %1 : tensor<4x2xf32>
  } : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
