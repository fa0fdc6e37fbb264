// Shardy: shardy/dialect/sdy/transforms/import/lift_inlined_meshes.cc, LiftInlinedMeshesPass and
// createNewMeshOp.
// RUN: sdy_opt %s -split-input-file -sdy-lift-inlined-meshes | FileCheck %s

// An inlined mesh equal to a symbol uses that symbol; a second symbol with the same mesh is
// merged into the first; a new mesh gets a unique name after the existing meshes.
// CHECK:      sdy.mesh @m = <["p"=2]>
// CHECK-NEXT: sdy.mesh @mesh = <["q"=4]>
// CHECK-NEXT: sdy.mesh @mesh_0 = <["r"=2]>
// CHECK-NOT:  sdy.mesh
sdy.mesh @m = <["p"=2]>
sdy.mesh @same_as_m = <["p"=2]>
sdy.mesh @mesh = <["q"=4]>

// CHECK-LABEL: func @lifted(
// CHECK-SAME:    %arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"p"}]>}
// CHECK-SAME:    %arg1: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}
func.func @lifted(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<mesh<["p"=2]>, [{"p"}]>},
                  %arg1: tensor<4xf32> {sdy.sharding = #sdy.sharding<@same_as_m, [{}]>}) -> tensor<4xf32> {
  // CHECK-NEXT: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_0, [{"r"}]>]>}
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["r"=2]>, [{"r"}]>]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Without mesh symbols the new ones start the module: a maximal mesh is named after its device,
// the empty mesh `empty_mesh`.
// CHECK:      sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
// CHECK-NEXT: sdy.mesh @empty_mesh = <[]>
// CHECK-LABEL: func @special_meshes
func.func @special_meshes(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_3, []>]>}
  // CHECK-NEXT: stablehlo.abs %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@empty_mesh, [{}]>]>}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<[], device_ids=[3]>, []>]>} : tensor<4xf32>
  %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<[]>, [{}]>]>} : tensor<4xf32>
  return %1 : tensor<4xf32>
}
