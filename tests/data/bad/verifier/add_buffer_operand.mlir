// buffers (memref) are values of while, tuple, get_tuple_element, return and custom_call only
func.func @main(%a: memref<4xf32>) -> memref<4xf32> {
  // expected-error@+1 {{'stablehlo.add' op operand #0 must be ranked tensor of any type values, but got 'memref<4xf32>'}}
  %0 = "stablehlo.add"(%a, %a) : (memref<4xf32>, memref<4xf32>) -> memref<4xf32>
  return %0 : memref<4xf32>
}
