// A rank-3 value on a 3-axis mesh with a padded dimension (9 over z=2): the mesh view nests
// grids, the tensor view needs a slider for the third dimension and shows padding.
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

func.func @main(%arg0: tensor<8x9x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"z"}, {}]>}) -> tensor<8x9x4xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x9x4xf32>
  return %0 : tensor<8x9x4xf32>
}
