// a constant's result is statically shaped (HLO_StaticShapeTensorOrPerAxisQuantizedTensor)
func.func @main() -> tensor<?xi32> {
  // expected-error@+1 {{'stablehlo.constant' op result #0 must be statically shaped tensor, but got 'tensor<?xi32>'}}
  %0 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<?xi32>
  return %0 : tensor<?xi32>
}
