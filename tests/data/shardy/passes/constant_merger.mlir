// Shardy: shardy/dialect/sdy/transforms/export/constant_or_scalar_merger.cc, maybeGetCachedOp.
// RUN: sdy_opt %s -split-input-file -sdy-constant-or-scalar-merger | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Constants with the same value and sharding become one; another sharding keeps its own.
// CHECK-LABEL: func @same_attributes
func.func @same_attributes(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[C0:.*]] = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} dense<5.000000e-01>
  // CHECK-NEXT: %[[C2:.*]] = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} dense<5.000000e-01>
  // CHECK-NEXT: %[[A:.*]] = stablehlo.add %arg0, %[[C0]]
  // CHECK-NEXT: %[[B:.*]] = stablehlo.add %arg0, %[[C0]]
  // CHECK-NEXT: %[[C:.*]] = stablehlo.add %arg0, %[[C2]]
  // CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
  %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} dense<5.000000e-01> : tensor<4xf32>
  %1 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} dense<5.000000e-01> : tensor<4xf32>
  %2 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} dense<5.000000e-01> : tensor<4xf32>
  %3 = stablehlo.add %arg0, %0 : tensor<4xf32>
  %4 = stablehlo.add %arg0, %1 : tensor<4xf32>
  %5 = stablehlo.add %arg0, %2 : tensor<4xf32>
  return %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Broadcasts of one scalar to one type merge; a constant in another region is kept.
// CHECK-LABEL: func @broadcasts
func.func @broadcasts(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[B:.*]] = stablehlo.broadcast_in_dim %arg1
  // CHECK-NEXT: %[[M:.*]] = stablehlo.multiply %arg0, %[[B]]
  // CHECK-NEXT: %[[D:.*]] = stablehlo.divide %arg0, %[[B]]
  %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.multiply %arg0, %0 : tensor<4xf32>
  %2 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %3 = stablehlo.divide %arg0, %2 : tensor<4xf32>
  return %1, %3 : tensor<4xf32>, tensor<4xf32>
}
