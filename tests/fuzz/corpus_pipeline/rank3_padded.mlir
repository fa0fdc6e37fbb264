sdy.mesh @mesh = <["x"=2, "y"=3], device_ids=[5, 4, 3, 2, 1, 0]>
func.func @main(%arg0: tensor<4x10x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}, %b: tensor<7xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) -> tensor<4x10x6xf32> {
  return %arg0 : tensor<4x10x6xf32>
}
