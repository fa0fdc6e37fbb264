// compare's result is an HLO_PredTensor (StablehloOps.td): ODS rejects any other element type
// before the type inference (compare_c2: i1 of the operands' shape) runs
func.func @main(%a: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error@+1 {{'stablehlo.compare' op result #0 must be ranked tensor of pred (AKA boolean or 1-bit integer) values, but got 'tensor<4xi32>'}}
  %0 = "stablehlo.compare"(%a, %a) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
