// custom_call (StablehloOps.cpp CustomCallOp::verify): with several results, output_tuple_indices index the results
func.func @main(%a: tensor<2xf32>, %b: tensor<3xf32>) -> (tensor<2xf32>, tensor<3xf32>) {
  // expected-error@+1 {{shapes mismatch in the output_operand_alias attribute: operand part has type 'tensor<3xf32>' and output part has type 'tensor<2xf32>'}}
  %0:2 = "stablehlo.custom_call"(%a, %b) {call_target_name = "foo", output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 1, operand_tuple_indices = []>]} : (tensor<2xf32>, tensor<3xf32>) -> (tensor<2xf32>, tensor<3xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<3xf32>
}
