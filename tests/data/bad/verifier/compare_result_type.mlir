// compare_c2 (TypeInference.cpp inferCompareOp): compare yields i1 of the operands' shape
func.func @main(%a: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{'stablehlo.compare' op inferred type(s) 'tensor<4xi1>' are incompatible with return type(s) of operation 'tensor<4xi32>'}}
  %0 = "stablehlo.compare"(%a, %a) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
