// Shardings are part of the type, so they must match wherever types must match: a while loop's
// carry, and the branches of a case (`lax.cond`: branch 1 is true_fun, branch 0 false_fun).
module @control attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>
  func.func @main(%pred: tensor<i32>, %init: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}]>}) -> tensor<8xf32> {
    %loop = stablehlo.while(%acc = %init) : tensor<8xf32>
     cond {
      %t = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %t : tensor<i1>
    } do {
      %next = sdy.reshard %acc <@mesh, [{"Y"}]> : tensor<8xf32>
      stablehlo.return %next : tensor<8xf32>
    }
    %branch = "stablehlo.case"(%pred) ({
      stablehlo.return %init : tensor<8xf32>
    }, {
      %g = sdy.reshard %init <@mesh, [{}]> : tensor<8xf32>
      stablehlo.return %g : tensor<8xf32>
    }) : (tensor<i32>) -> tensor<8xf32>
    %fine = stablehlo.while(%acc2 = %init) : tensor<8xf32>
     cond {
      %t2 = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %t2 : tensor<i1>
    } do {
      %next2 = stablehlo.cosine %acc2 : tensor<8xf32>
      stablehlo.return %next2 : tensor<8xf32>
    }
    return %fine : tensor<8xf32>
  }
}
