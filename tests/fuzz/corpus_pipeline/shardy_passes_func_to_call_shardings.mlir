// Shardy: shardy/dialect/sdy/transforms/import/propagate_sharding_from_func_to_call.cc, with
// getFuncResultShardings and getMeshOrRef from ir/utils.cc.
// RUN: sdy_opt %s -split-input-file -sdy-propagate-sharding-from-func-to-call | FileCheck %s

sdy.mesh @mesh = <["p"=2, "q"=2]>
sdy.mesh @single = <[], device_ids=[1]>

// A result without a sharding is fully open on the mesh of the first result sharding that isn't
// on a maximal mesh.
// CHECK-LABEL: func @open_for_missing
func.func @open_for_missing(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  // CHECK-NEXT: call @two_of_three(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@single, []>, <@mesh, [{?}, {?}]>, <@mesh, [{}, {"q"}]>]>}
  %0:3 = call @two_of_three(%arg0) : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
  return %0#0, %0#1, %0#2 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
func.func private @two_of_three(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@single, []>}, tensor<4x4xf32>, tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"q"}]>}) {
  return %arg0, %arg0, %arg0 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

sdy.mesh @single = <[], device_ids=[0]>

// Only maximal-mesh result shardings: no mesh to open the others on, the call stays as it is.
// CHECK-LABEL: func @only_maximal
func.func @only_maximal(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[C:.*]]:2 = call @f(%arg0) : (tensor<4xf32>)
  %0:2 = call @f(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}
func.func private @f(%arg0: tensor<4xf32>) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@single, []>}, tensor<4xf32>) {
  return %arg0, %arg0 : tensor<4xf32>, tensor<4xf32>
}
