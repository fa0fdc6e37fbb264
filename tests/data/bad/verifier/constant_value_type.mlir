// a constant has its value's type (ConstantOp::inferReturnTypes): a scalar value cannot make a
// tensor<3xi32> (run would read past the one element it holds)
func.func @main() -> tensor<3xi32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{'stablehlo.constant' op inferred type(s) 'tensor<i32>' are incompatible with return type(s) of operation 'tensor<3xi32>'}}
  %0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
