// jnp.arange(8) sharded over X: per device a local iota plus the offset of its block. The
// reference check must compare the offset value (what stands for the iota), not the local iota.
sdy.mesh @mesh = <["X"=2, "Y"=2]>
func.func @main() -> tensor<4x2xi32> {
  %range = stablehlo.iota dim = 0 : tensor<8xi32>
  %rows = stablehlo.reshape %range : (tensor<8xi32>) -> tensor<4x2xi32>
  %sharded = sdy.sharding_constraint %rows <@mesh, [{"X"}, {}]> : tensor<4x2xi32>
  return %sharded : tensor<4x2xi32>
}
