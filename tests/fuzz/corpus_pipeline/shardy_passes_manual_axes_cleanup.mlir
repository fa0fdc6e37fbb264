// Shardy: shardy/dialect/sdy/transforms/import/manual_axes_cleanup.cc,
// addUnusedManualAxesToReplicatedAxes (with getAxisSetDiff and sortAndMergeAxes from utils.cc).
// RUN: sdy_opt %s -split-input-file -sdy-manual-axes-cleanup | FileCheck %s

sdy.mesh @mesh = <["m"=4, "n"=2]>

// Only the unused part of a manual axis is stated replicated; an updated sharding moves to the
// computation's common mesh (here from an equal inlined mesh to the symbol).
// CHECK-LABEL: func @unused_parts
func.func @unused_parts(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: sdy.manual_computation(%arg0)
  // CHECK-SAME{LITERAL}: in_shardings=[<@mesh, [{"m":(1)2}], replicated={"m":(2)2, "n"}>]
  // CHECK-SAME{LITERAL}: out_shardings=[<@mesh, [{"m":(2)2}], replicated={"m":(1)2, "n"}>]
  // CHECK-SAME{LITERAL}: manual_axes={"m", "n"}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"m":(1)2}]>] out_shardings=[<mesh<["m"=4, "n"=2]>, [{"m":(2)2}]>] manual_axes={"n", "m"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["m"=4]>

// Replicated parts next to each other merge back into the axis.
// CHECK-LABEL: func @merged
func.func @merged(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: sdy.manual_computation(%arg0)
  // CHECK-SAME{LITERAL}: in_shardings=[<@mesh, [{}], replicated={"m"}>]
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}], replicated={"m":(1)2}>] out_shardings=[<@mesh, [{}], replicated={"m"}>] manual_axes={"m"} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
