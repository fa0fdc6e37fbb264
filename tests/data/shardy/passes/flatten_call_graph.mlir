// Shardy: shardy/dialect/sdy/transforms/import/flatten_call_graph.cc, FlattenCallGraphPass (with
// walkCalls and cloneFuncRecursively from ir/utils.cc).
// RUN: sdy_opt %s -split-input-file -sdy-flatten-call-graph | FileCheck %s

// The first call keeps the function; the second calls a copy made after it.
// CHECK-LABEL: func @twice(
// CHECK-NEXT:    call @inc(
// CHECK-NEXT:    call @inc_0(
func.func @twice(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  %0 = call @inc(%arg0) : (tensor<4xi32>) -> tensor<4xi32>
  %1 = call @inc(%0) : (tensor<4xi32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}
// CHECK-LABEL: func private @inc(
// CHECK-LABEL: func private @inc_0(
// CHECK-SAME:    attributes {sdy.original_func_name = "inc"}
// CHECK-NEXT:    stablehlo.add
func.func private @inc(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Callees are visited before callers: @outer's own call of @leaf is the first one, so the call
// from @main gets a copy. Copying @outer for its second call copies @leaf first, and one counter
// numbers every copy the pass makes.
// CHECK-LABEL: func @main(
// CHECK-NEXT:    call @outer(
// CHECK-NEXT:    call @outer_1(
// CHECK-NEXT:    call @leaf_2(
func.func @main(%arg0: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = call @outer(%arg0) : (tensor<4xi32>) -> tensor<4xi32>
  %1 = call @outer(%arg0) : (tensor<4xi32>) -> tensor<4xi32>
  %2 = call @leaf(%arg0) : (tensor<4xi32>) -> tensor<4xi32>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}
// CHECK-LABEL: func private @outer(
// CHECK-NEXT:    call @leaf(
func.func private @outer(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  %0 = call @leaf(%arg0) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// CHECK-LABEL: func private @leaf(
func.func private @leaf(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.negate %arg0 : tensor<4xi32>
  return %0 : tensor<4xi32>
}
// CHECK-LABEL: func private @leaf_0(
// CHECK-SAME:    attributes {sdy.original_func_name = "leaf"}
// CHECK-LABEL: func private @outer_1(
// CHECK-SAME:    attributes {sdy.original_func_name = "outer"}
// CHECK-NEXT:    call @leaf_0(
// CHECK-LABEL: func private @leaf_2(
// CHECK-SAME:    attributes {sdy.original_func_name = "leaf"}
