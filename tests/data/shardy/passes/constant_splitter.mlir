// Shardy: shardy/dialect/sdy/transforms/import/constant_or_scalar_splitter.cc, processOp and
// cloneSubComputation (with cloneFuncRecursively from ir/utils.cc).
// RUN: sdy_opt %s -split-input-file -sdy-constant-or-scalar-splitter | FileCheck %s

// Two non-constant users get one copy each; the original goes.
// CHECK-LABEL: func @two_users
func.func @two_users(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[C0:.*]] = sdy.constant dense<2.000000e+00> : tensor<4xf32>
  // CHECK-NEXT: %[[C1:.*]] = sdy.constant dense<2.000000e+00> : tensor<4xf32>
  // CHECK-NEXT: %[[A:.*]] = stablehlo.add %arg0, %[[C0]]
  // CHECK-NEXT: %[[M:.*]] = stablehlo.multiply %arg0, %[[C1]]
  // CHECK-NEXT: return %[[A]], %[[M]]
  %c = stablehlo.constant dense<2.000000e+00> : tensor<4xf32>
  %0 = stablehlo.add %arg0, %c : tensor<4xf32>
  %1 = stablehlo.multiply %arg0, %c : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A constant expression (iota, then an element-wise op and a reshape) is copied whole for each
// use, operands first. Each copied op goes right before the op it copies, so the two copies
// interleave.
// CHECK-LABEL: func @whole_expression
func.func @whole_expression(%arg0: tensor<2x2xi32>) -> (tensor<2x2xi32>, tensor<2x2xi32>) {
  // CHECK-NEXT: %[[I0:.*]] = stablehlo.iota dim = 0 : tensor<4xi32>
  // CHECK-NEXT: %[[I1:.*]] = stablehlo.iota dim = 0 : tensor<4xi32>
  // CHECK-NEXT: %[[N0:.*]] = stablehlo.negate %[[I0]]
  // CHECK-NEXT: %[[N1:.*]] = stablehlo.negate %[[I1]]
  // CHECK-NEXT: %[[R0:.*]] = stablehlo.reshape %[[N0]] : (tensor<4xi32>) -> tensor<2x2xi32>
  // CHECK-NEXT: %[[R1:.*]] = stablehlo.reshape %[[N1]] : (tensor<4xi32>) -> tensor<2x2xi32>
  // CHECK-NEXT: %[[S:.*]] = stablehlo.subtract %arg0, %[[R0]]
  // CHECK-NEXT: return %[[S]], %[[R1]]
  %0 = stablehlo.iota dim = 0 : tensor<4xi32>
  %1 = stablehlo.negate %0 : tensor<4xi32>
  %2 = stablehlo.reshape %1 : (tensor<4xi32>) -> tensor<2x2xi32>
  %3 = stablehlo.subtract %arg0, %2 : tensor<2x2xi32>
  return %3, %2 : tensor<2x2xi32>, tensor<2x2xi32>
}

// -----

// A scalar is never copied; each use of its broadcast gets its own broadcast.
// CHECK-LABEL: func @scalar_broadcast
func.func @scalar_broadcast(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[B0:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4xf32>
  // CHECK-NEXT: %[[B1:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4xf32>
  // CHECK-NEXT: %[[A:.*]] = stablehlo.add %arg0, %[[B0]]
  // CHECK-NEXT: %[[D:.*]] = stablehlo.divide %arg0, %[[B1]]
  // CHECK-NEXT: return %[[A]], %[[D]]
  %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.add %arg0, %0 : tensor<4xf32>
  %2 = stablehlo.divide %arg0, %0 : tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A call of a function made only of constant ops is a constant expression: each use gets its own
// call of its own copy of the function, which remembers the original name.
// CHECK-LABEL: func @constant_call
func.func @constant_call(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[C0:.*]] = call @ones_0() : () -> tensor<4xf32>
  // CHECK-NEXT: %[[C1:.*]] = call @ones_1() : () -> tensor<4xf32>
  // CHECK-NEXT: %[[A:.*]] = stablehlo.add %arg0, %[[C0]]
  // CHECK-NEXT: %[[S:.*]] = stablehlo.subtract %arg0, %[[C1]]
  // CHECK-NEXT: return %[[A]], %[[S]]
  %0 = call @ones() : () -> tensor<4xf32>
  %1 = stablehlo.add %arg0, %0 : tensor<4xf32>
  %2 = stablehlo.subtract %arg0, %0 : tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func private @ones() -> tensor<4xf32> {
// CHECK-LABEL: func private @ones_0() -> tensor<4xf32> attributes {sdy.original_func_name = "ones"}
// CHECK-LABEL: func private @ones_1() -> tensor<4xf32> attributes {sdy.original_func_name = "ones"}
func.func private @ones() -> tensor<4xf32> {
  %0 = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A call of a function that does more than constant ops is not a constant expression.
// CHECK-LABEL: func @non_constant_call
func.func @non_constant_call(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[C:.*]] = call @state() : () -> tensor<4xf32>
  // CHECK-NEXT: %[[A:.*]] = stablehlo.add %arg0, %[[C]]
  // CHECK-NEXT: %[[S:.*]] = stablehlo.subtract %arg0, %[[C]]
  // CHECK-NEXT: return %[[A]], %[[S]]
  %0 = call @state() : () -> tensor<4xf32>
  %1 = stablehlo.add %arg0, %0 : tensor<4xf32>
  %2 = stablehlo.subtract %arg0, %0 : tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}
// CHECK-NOT: @state_0
func.func private @state() -> tensor<4xf32> {
  %0 = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
  %1 = stablehlo.custom_call @Something(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// The sharding groups a copied constant belongs to are copied with it; the original and its
// group go.
// CHECK-LABEL: func @with_sharding_group
func.func @with_sharding_group(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[C0:.*]] = sdy.constant dense<3.000000e+00>
  // CHECK-NEXT: sdy.sharding_group %[[C0]] group_id=7
  // CHECK-NEXT: %[[C1:.*]] = sdy.constant dense<3.000000e+00>
  // CHECK-NEXT: sdy.sharding_group %[[C1]] group_id=7
  // CHECK-NEXT: %[[A:.*]] = stablehlo.add %arg0, %[[C0]]
  // CHECK-NEXT: %[[M:.*]] = stablehlo.maximum %arg0, %[[C1]]
  // CHECK-NEXT: return %[[A]], %[[M]]
  %c = stablehlo.constant dense<3.000000e+00> : tensor<4xf32>
  sdy.sharding_group %c group_id=7 : tensor<4xf32>
  %0 = stablehlo.add %arg0, %c : tensor<4xf32>
  %1 = stablehlo.maximum %arg0, %c : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Named computations are visited inner first (MLIR's post-order walk), so the outer body already
// knows that the inner one isn't constant: it is not copied, only the constant it takes is.
// CHECK-LABEL: func @inner_named_computation_not_constant
func.func @inner_named_computation_not_constant(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: sdy.named_computation<"outer">(%arg0) (%[[A:.*]]: tensor<4xf32>) {
  // CHECK-NEXT:   %[[C:.*]] = sdy.constant dense<1.000000e+00>
  // CHECK-NEXT:   %[[I:.*]] = sdy.named_computation<"inner">(%[[C]])
  // CHECK-NEXT:     stablehlo.custom_call @Opaque
  // CHECK-NEXT:     sdy.return
  // CHECK-NEXT:   }
  // CHECK-NEXT:   %[[S:.*]] = stablehlo.add %[[A]], %[[I]]
  // CHECK-NEXT:   %[[M:.*]] = stablehlo.multiply %[[A]], %[[I]]
  // CHECK-NOT:    sdy.named_computation<"inner">
  %0 = sdy.named_computation<"outer">(%arg0) (%a: tensor<4xf32>) {
    %c = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
    %1 = sdy.named_computation<"inner">(%c) (%b: tensor<4xf32>) {
      %n = stablehlo.custom_call @Opaque(%b) : (tensor<4xf32>) -> tensor<4xf32>
      sdy.return %n : tensor<4xf32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %2 = stablehlo.add %a, %1 : tensor<4xf32>
    %3 = stablehlo.multiply %a, %1 : tensor<4xf32>
    %4 = stablehlo.subtract %2, %3 : tensor<4xf32>
    sdy.return %4 : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
