"sdy.mesh"() {mesh = #sdy.mesh<["x"=4, "y"=2]>, sym_name = "mesh"} : () -> ()
func.func @f(%arg0: tensor<128x64xf32>, %arg1: tensor<64x32xf32>) -> tensor<128x32xf32> {
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contractiimensions = [0]>, sdy.shardiog = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<128x64xf32>, tensor<64x32xf32>) -> tensor<128x32xf32>
  %1 = "stablehlo.multiply"(%0, %0) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
  "func.return"(%1) : (tensor<128x32xf32>) -> ()
}
