// jax tests/shard_map_test.py::ShardMapTest::test_partial_auto_mismatch_mesh_error and jax/_src/shard_map.py::_shmap_checks: a shard_map nested in one over mesh (i, j) that is given another mesh is refused.
// CLI-FAIL check: The context mesh AbstractMesh('i': 2, 'j': 2, axis_types=(Manual, Auto)) should match the mesh passed to shard_map Mesh('k': 4, axis_types=(Auto,))
sdy.mesh @mesh = <["i"=2, "j"=2]>
sdy.mesh @other = <["k"=4]>
func.func @main(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i"} (%a: tensor<2x4xf32>) {
    %1 = sdy.manual_computation(%a) in_shardings=[<@other, [{}, {"k"}]>] out_shardings=[<@other, [{}, {"k"}]>] manual_axes={"k"} (%b: tensor<2x1xf32>) {
      sdy.return %b : tensor<2x1xf32>
    } : (tensor<2x4xf32>) -> tensor<2x4xf32>
    sdy.return %1 : tensor<2x4xf32>
  } : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
