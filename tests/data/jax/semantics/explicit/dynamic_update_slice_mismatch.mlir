// jax jax/_src/lax/slicing.py::_dynamic_update_slice_sharding_rule ("dynamic_update_slice operand sharding must be equal to update sharding", types printed with str_short(mesh_axis_types=True)): an unsharded update into f32[8@X] is refused.
// CLI-FAIL types: dynamic_update_slice operand sharding must be equal to update sharding, got operand sharding f32[8@X]({Explicit: ('X', 'Y')}) and update sharding f32[4]({Explicit: ('X', 'Y')}).
module @m attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=2]>
  func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}]>},
                  %u: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
    %i = stablehlo.constant dense<2> : tensor<i32>
    %s = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<8xf32>, tensor<4xf32>, tensor<i32>) -> tensor<8xf32>
    return %s : tensor<8xf32>
  }
}
