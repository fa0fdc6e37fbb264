// JAX's illegal add inside a loop body: collapsing the loop's region must keep the error in
// sight on its summary node.
module @error_in_loop attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>
  func.func @main(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                  %skip: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"X"}]>})
      -> tensor<8x8xf32> {
    %loop = stablehlo.while(%acc = %x) : tensor<8x8xf32>
     cond {
      %t = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %t : tensor<i1>
    } do {
      %h = stablehlo.tanh %acc : tensor<8x8xf32>
      %out = stablehlo.add %h, %skip : tensor<8x8xf32>
      stablehlo.return %out : tensor<8x8xf32>
    }
    return %loop : tensor<8x8xf32>
  }
}
