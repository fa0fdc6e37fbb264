// custom_call (StablehloOps.cpp CustomCallOp::verify): layouts for both operands and results, or none
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{Layout attributes should be specified for either both operands and results or none.}}
  %0 = "stablehlo.custom_call"(%a) {call_target_name = "foo", operand_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
