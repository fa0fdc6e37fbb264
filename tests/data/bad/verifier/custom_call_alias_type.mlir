// custom_call (StablehloOps.cpp CustomCallOp::verify): an aliased operand part and output part have the same type
func.func @main(%a: tuple<tensor<1x1xf32>, tensor<2x3xf32>>, %b: tensor<5x5xf32>) -> tuple<tensor<20x30xf32>> {
  // expected-error@+1 {{shapes mismatch in the output_operand_alias attribute: operand part has type 'tensor<2x3xf32>' and output part has type 'tensor<20x30xf32>'}}
  %0 = "stablehlo.custom_call"(%a, %b) {call_target_name = "foo", output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = [1]>]} : (tuple<tensor<1x1xf32>, tensor<2x3xf32>>, tensor<5x5xf32>) -> tuple<tensor<20x30xf32>>
  return %0 : tuple<tensor<20x30xf32>>
}
