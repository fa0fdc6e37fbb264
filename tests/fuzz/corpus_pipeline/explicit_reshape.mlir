// reshape under explicit sharding: singleton dimensions come and go freely; a split or merge
// keeps the sharding on the major piece; anything else needs an `out_sharding`.
module @reshape attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>
  func.func @main(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                  %b: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"Y"}]>}) -> tensor<4x2x6xf32> {
    %singleton = stablehlo.reshape %a : (tensor<8x6xf32>) -> tensor<8x1x6xf32>
    %split = stablehlo.reshape %a : (tensor<8x6xf32>) -> tensor<4x2x6xf32>
    %merged = stablehlo.reshape %split : (tensor<4x2x6xf32>) -> tensor<8x6xf32>
    %minor = stablehlo.reshape %b : (tensor<4x2xf32>) -> tensor<8xf32>
    %given = stablehlo.reshape %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"Y"}]>]>} : (tensor<4x2xf32>) -> tensor<8xf32>
    return %split : tensor<4x2x6xf32>
  }
}
