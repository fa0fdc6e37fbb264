// set_dimension_size (TypeInference.cpp verifyDimInBounds): the dimension indexes the operand
func.func @main(%a: tensor<4x4xf32>, %n: tensor<i32>) -> tensor<4x4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{requires dimension attribute in range [0, 2); found (2)}}
  %0 = "stablehlo.set_dimension_size"(%a, %n) {dimension = 2 : i64} : (tensor<4x4xf32>, tensor<i32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
