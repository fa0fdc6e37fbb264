// The first typed example of the explicit sharding guide:
//
//   mesh = jax.make_mesh((2, 4), ("X", "Y"), axis_types=(AxisType.Explicit, AxisType.Explicit))
//   replicated_array = np.arange(8).reshape(4, 2)           # int32[4,2]
//   sharded_array = reshard(replicated_array, P("X", None))  # int32[4@X,2]
module @reshard attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>
  func.func @main() -> tensor<4x2xi32> {
    %range = stablehlo.iota dim = 0 : tensor<8xi32>
    %replicated_array = stablehlo.reshape %range : (tensor<8xi32>) -> tensor<4x2xi32>
    %sharded_array = sdy.sharding_constraint %replicated_array <@mesh, [{"X"}, {}]> : tensor<4x2xi32>
    return %sharded_array : tensor<4x2xi32>
  }
}
