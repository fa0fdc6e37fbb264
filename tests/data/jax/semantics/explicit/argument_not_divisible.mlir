// jax jax/_src/pjit.py::_check_divisibility with jax/_src/sharding.py::Sharding.shard_shape (IndivisibleError "... implies that array axis 0 is partitioned 4 times, but the dimension size is 6"): an entry argument f32[6] sharded over the explicit axis X of size 4 is refused, never padded.
// CLI-FAIL types: One of pjit arguments was given the sharding NamedSharding(mesh=Mesh('X': 4, axis_types=(Explicit,)), spec=P('X',)) implies that array axis 0 is partitioned 4 times, but the dimension size is 6 (full shape: (6,), per-dimension tiling factors: (4,) should evenly divide the shape)
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit"}}} {
  sdy.mesh @mesh = <["X"=4]>
  func.func @main(%a: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}]>}) -> tensor<6xf32> {
    %s = stablehlo.negate %a : tensor<6xf32>
    return %s : tensor<6xf32>
  }
}
