// get_dimension_size_c1 (TypeInference.cpp verifyDimInBounds): the dimension indexes the operand
func.func @main(%a: tensor<4xf32>) -> tensor<i32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{requires dimension attribute in range [0, 1); found (3)}}
  %0 = "stablehlo.get_dimension_size"(%a) {dimension = 3 : i64} : (tensor<4xf32>) -> tensor<i32>
  return %0 : tensor<i32>
}
