// A counting loop on one device, for stepping into, over and out of regions.
func.func @main(%n: tensor<i32>) -> tensor<i32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %acc = %zero) : tensor<i32>, tensor<i32>
    cond {
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %next = stablehlo.add %i, %one : tensor<i32>
      %sum = stablehlo.add %acc, %next : tensor<i32>
      stablehlo.return %next, %sum : tensor<i32>, tensor<i32>
    }
  %doubled = stablehlo.add %r#1, %r#1 : tensor<i32>
  return %doubled : tensor<i32>
}
