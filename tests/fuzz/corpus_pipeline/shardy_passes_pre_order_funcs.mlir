// Shardy: shardy/dialect/sdy/transforms/import/pre_order_funcs.cc with iterateFuncs(preOrder) from
// ir/utils.cc: reverse post-order of the call graph from the public functions, in module order.
// RUN: sdy_opt %s -sdy-pre-order-funcs | FileCheck %s

// Post-order: @a, then @helper and @b; reversed: @b, @helper, @a.
// CHECK:      func.func @b(
// CHECK-NEXT:   call @helper
// CHECK:      func.func private @helper(
// CHECK:      func.func @a(
func.func private @helper(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
func.func @a(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
func.func @b(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @helper(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
