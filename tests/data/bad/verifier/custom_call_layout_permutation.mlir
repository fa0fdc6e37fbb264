// custom_call (StablehloOps.cpp CustomCallOp::verify): an operand layout is a permutation of its dimensions
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{incorrect layout dense<[0, 1, 2]> : tensor<3xindex> for type 'tensor<2x3xf32>', layout must be a permutation of [0, 2)}}
  %0 = "stablehlo.custom_call"(%a) {call_target_name = "foo", operand_layouts = [dense<[0, 1, 2]> : tensor<3xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
