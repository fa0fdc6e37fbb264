// get_tuple_element_c1 (TypeInference.cpp inferGetTupleElementOp): the index is within the tuple
func.func @main(%a: tuple<tensor<4xf32>, tensor<i32>>) -> tensor<4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{index 2 is out of bounds of operand with size 2}}
  %0 = "stablehlo.get_tuple_element"(%a) {index = 2 : i32} : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
