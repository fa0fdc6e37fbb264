// reduce over every dimension gives a scalar; sort's dimension may be negative (sort_c4:
// [-rank, rank)); a while loop whose body returns the carried types; a call whose types match
// its callee exactly.
func.func @main(%a: tensor<2x3xf32>, %z: tensor<f32>, %n: tensor<i32>) -> (tensor<f32>, tensor<2x3xf32>, tensor<i32>, tensor<2x3xf32>) {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  %1 = "stablehlo.sort"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.while(%i = %n) : tensor<i32>
   cond {
    %k = stablehlo.constant dense<3> : tensor<i32>
    %c = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next : tensor<i32>
  }
  %3 = func.call @double(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<f32>, tensor<2x3xf32>, tensor<i32>, tensor<2x3xf32>
}

func.func private @double(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.add %x, %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
