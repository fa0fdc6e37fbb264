// `shardscope.axis_types` naming an axis the mesh does not have.
module @bad attributes {shardscope.axis_types = {mesh = {X = "explicit", Z = "auto"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>
  func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
}
