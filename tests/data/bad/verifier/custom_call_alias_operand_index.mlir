// custom_call (StablehloOps.cpp CustomCallOp::verify): an output_operand_alias names an existing operand
func.func @main(%a: tensor<2x3xf32>, %b: tensor<5xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{expects operandIndex in the output_operand_alias attribute to be in range [0, 2); got: 2.}}
  %0 = "stablehlo.custom_call"(%a, %b) {call_target_name = "foo", output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 2, operand_tuple_indices = []>]} : (tensor<2x3xf32>, tensor<5xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
