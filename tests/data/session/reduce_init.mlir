// Reductions over a dimension sharded on x and y (4 devices): a sum whose init is not 0, a
// maximum whose init is not -inf (idempotent: harmless), a sum from 0; a product from 2 over an
// unsharded dimension (harmless) and one from 1 over a sharded one.
sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%v: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>})
    -> (tensor<i32>, tensor<i32>, tensor<i32>) {
  %c10 = stablehlo.constant dense<10> : tensor<i32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %sum10 = stablehlo.reduce(%v init: %c10) applies stablehlo.add across dimensions = [0] : (tensor<8xi32>, tensor<i32>) -> tensor<i32>
  %max10 = stablehlo.reduce(%v init: %c10) applies stablehlo.maximum across dimensions = [0] : (tensor<8xi32>, tensor<i32>) -> tensor<i32>
  %sum0 = stablehlo.reduce(%v init: %c0) applies stablehlo.add across dimensions = [0] : (tensor<8xi32>, tensor<i32>) -> tensor<i32>
  return %sum10, %max10, %sum0 : tensor<i32>, tensor<i32>, tensor<i32>
}

func.func @unsharded(%v: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<2xf32> {
  %c2 = stablehlo.constant dense<2.0> : tensor<f32>
  %p = stablehlo.reduce(%v init: %c2) applies stablehlo.multiply across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  return %p : tensor<2xf32>
}

func.func @product(%v: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<f32> {
  %c1 = stablehlo.constant dense<1.0> : tensor<f32>
  %p = stablehlo.reduce(%v init: %c1) applies stablehlo.multiply across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %p : tensor<f32>
}
