// real_dynamic_slice (TypeInference.cpp verifyRealDynamicSliceOp): one start index per operand dimension
func.func @main(%a: tensor<4x4xf32>, %s: tensor<1xi64>, %l: tensor<2xi64>, %t: tensor<2xi64>) -> tensor<?x?xf32> {
  // expected-error@+1 {{has mismatched number of operand rank (2) and start_indices size (1)}}
  %0 = "stablehlo.real_dynamic_slice"(%a, %s, %l, %t) : (tensor<4x4xf32>, tensor<1xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
