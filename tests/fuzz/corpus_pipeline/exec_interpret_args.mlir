// Inputs from `--args`: [1, 1] + [2, 2] = [3, 3]; a 2x2 result prints one row per line.
func.func @main(%arg0: tensor<2xi32>, %arg1: tensor<2xi32>) -> (tensor<2xi32>, tensor<2x2xf32>, tensor<i1>) {
  %0 = stablehlo.add %arg0, %arg1 : tensor<2xi32>
  %1 = stablehlo.constant dense<[[1.0, 2.5], [-3.0, 0.0]]> : tensor<2x2xf32>
  %2 = stablehlo.constant dense<true> : tensor<i1>
  return %0, %1, %2 : tensor<2xi32>, tensor<2x2xf32>, tensor<i1>
}
