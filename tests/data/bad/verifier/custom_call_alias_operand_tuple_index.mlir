// custom_call (StablehloOps.cpp CustomCallOp::verify): output_operand_alias operand_tuple_indices stay inside the operand's tuples
func.func @main(%a: tuple<tensor<1x1xf32>, tensor<2x3xf32>>, %b: tensor<5x5xf32>) -> tuple<tensor<2x3xf32>> {
  // expected-error@+1 {{operand_tuple_indices in the output_operand_alias attribute out of bounds}}
  %0 = "stablehlo.custom_call"(%a, %b) {call_target_name = "foo", output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = [2]>]} : (tuple<tensor<1x1xf32>, tensor<2x3xf32>>, tensor<5x5xf32>) -> tuple<tensor<2x3xf32>>
  return %0 : tuple<tensor<2x3xf32>>
}
