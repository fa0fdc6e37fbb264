// custom_call output_operand_aliases that hold: an operand aliased whole by the single result
// (empty tuple indices), and several results indexed as a tuple (output_tuple_indices = [1]).
func.func @main(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xf32>) {
  %0 = stablehlo.custom_call @LayoutConstraint(%a) {output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1:2 = stablehlo.custom_call @MoveToHost(%a, %b) {output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2x3xf32>, tensor<4xf32>) -> (tensor<2x3xf32>, tensor<4xf32>)
  return %0, %1#0, %1#1 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xf32>
}
