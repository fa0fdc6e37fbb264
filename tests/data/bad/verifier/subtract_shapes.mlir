// subtract (MLIR OpTrait::Elementwise): all tensor operands and results have one shape; a
// dynamic first operand lets the other two pass the compatible-type trait, not this one
func.func @main(%a: tensor<?xf32>, %b: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'stablehlo.subtract' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "stablehlo.subtract"(%a, %b) : (tensor<?xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
