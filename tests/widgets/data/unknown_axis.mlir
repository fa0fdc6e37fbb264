// A Shardy program the verifier rejects: the sharding of %x names an axis the mesh does not have.
sdy.mesh @mesh = <["x"=2]>

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}]>]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
