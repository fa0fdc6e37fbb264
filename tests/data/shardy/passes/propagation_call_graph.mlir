// Shardy: shardy/dialect/sdy/transforms/propagation/propagation_pipeline.cc (conservative mode:
// FlattenCallGraphPass, ImportFuncCallsPass, ExportNamedComputationsPass, UnflattenCallGraphPass,
// SymbolDCE), with export_named_computations.cc and unflatten_call_graph.cc.
// RUN: sdy_opt %s -split-input-file -sdy-propagation-pipeline | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Three calls of one function: flattening gives each its own copy, propagation shards the copies
// like their operands, export names them in call order (`id`, `id_0`, `id_1`), and unflattening
// sends the third call, sharded like the first, back to `id`; `id_1` is dropped.
// CHECK-LABEL: func @main(
// CHECK:         call @id(%arg0)
// CHECK-NEXT:    call @id_0(%arg1)
// CHECK-NEXT:    call @id(%arg0)
// CHECK-LABEL: func private @id(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>})
// CHECK-LABEL: func private @id_0(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>})
// CHECK-NOT:   func private @id_1
func.func @main(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
                %arg1: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>})
    -> (tensor<8x2xi32>, tensor<8x2xi32>, tensor<8x2xi32>) {
  %0 = call @id(%arg0) : (tensor<8x2xi32>) -> tensor<8x2xi32>
  %1 = call @id(%arg1) : (tensor<8x2xi32>) -> tensor<8x2xi32>
  %2 = call @id(%arg0) : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %0, %1, %2 : tensor<8x2xi32>, tensor<8x2xi32>, tensor<8x2xi32>
}
func.func private @id(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %0 = stablehlo.negate %arg0 : tensor<8x2xi32>
  return %0 : tensor<8x2xi32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Export runs in post-order of the call sites: the call inside @outer is exported before the call
// of @outer, so it takes the name `leaf` and the later call from @main gets `leaf_0`; both are
// sharded alike, so unflattening keeps `leaf_0`, the first in call order (from @main), for both.
// CHECK-LABEL: func @main(
// CHECK:         call @outer(
// CHECK-NEXT:    call @leaf_0(
// CHECK-LABEL: func private @outer(
// CHECK:         call @leaf_0(
// CHECK-LABEL: func private @leaf_0(
// CHECK-NOT:   func private @leaf(
func.func @main(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x2xi32> {
  %0 = call @outer(%arg0) : (tensor<8x2xi32>) -> tensor<8x2xi32>
  %1 = call @leaf(%0) : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %1 : tensor<8x2xi32>
}
func.func private @outer(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %0 = stablehlo.abs %arg0 : tensor<8x2xi32>
  %1 = call @leaf(%0) : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %1 : tensor<8x2xi32>
}
func.func private @leaf(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  return %arg0 : tensor<8x2xi32>
}
