// jax jax/_src/shard_map.py::_manual_spec ("Invalid spec": in a dim's axis tuple the manual axes must come first) and shardy ir/verifiers.cc (manual axes must come before free axes in a dimension sharding): in_shardings [{"j", "i"}] with 'i' manual is refused.
// CLI-FAIL check: must have all manual axes come before free axes in its dimension sharding
sdy.mesh @mesh = <["i"=2, "j"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"j", "i"}]>] out_shardings=[<@mesh, [{"j", "i"}]>] manual_axes={"i"} (%a: tensor<4xf32>) {
    sdy.return %a : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
