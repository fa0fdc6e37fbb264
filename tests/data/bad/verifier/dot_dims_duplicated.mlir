// a dimension-numbers struct names each field once (StablehloOps.cpp parseStruct)
func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) <{
    dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1],
      // expected-error@+2 {{duplicated `lhs_contracting_dimensions` entry}}
      // expected-error@+1 {{failed parsing dot dimension numbers attribute}}
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>
  }> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
