// every buffer a custom call returns is aliased to one of its buffer operands
func.func @main(%a: memref<2xf32>) -> memref<2xf32> {
  // expected-error@+1 {{'stablehlo.custom_call' op buffer output [] is not used in output_operand_alias}}
  %0 = "stablehlo.custom_call"(%a) {call_target_name = "update_in_place", api_version = 4 : i32} : (memref<2xf32>) -> memref<2xf32>
  return %0 : memref<2xf32>
}
