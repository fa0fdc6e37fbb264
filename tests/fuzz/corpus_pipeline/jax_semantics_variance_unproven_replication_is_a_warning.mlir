// jax jax/_src/shard_map.py::_check_reps (check_vma=True raises; check_vma=False programs carry no mark in the text): returning an input block with out_specs=P('i', None) on a (4, 2) mesh cannot be proven wrong from the text, so it is a warning citing JAX's rule, not an error.
// CLI check: warning: shard_map applied to the function 'main' was given out_specs which require replication
// CLI check: check_vma=True
// CLI-EXIT-1 run --check-reference: devices 0 and 1 should hold the same block but differ
sdy.mesh @mesh = <["i"=4, "j"=2]>
func.func @main(%arg0: tensor<12x12xf32>) -> tensor<12x6xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {"j"}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i", "j"} (%b: tensor<3x6xf32>) {
    sdy.return %b : tensor<3x6xf32>
  } : (tensor<12x12xf32>) -> tensor<12x6xf32>
  return %0 : tensor<12x6xf32>
}
