// Shardy: shardy/dialect/sdy/ir/verifiers.cc, MeshAttr::verify and MeshAxisAttr::verify.
// RUN: sdy_opt %s -split-input-file -verify-diagnostics

// MeshAttr::verify: a mesh without axes names at most one device (the maximal mesh).
// expected-error @+1 {{axes is empty and device_ids has more than one element}}
sdy.mesh @two_devices_no_axes = <[], device_ids=[3, 7]>

// -----

// MeshAttr::verify: device ids are checked before the axis names.
// expected-error @+1 {{device id must be non-negative, got: -2}}
sdy.mesh @negative_before_duplicate = <["p"=2, "p"=2], device_ids=[0, -2, 1, 3]>

// -----

// MeshAttr::verify: without axes, a negative id is still an error.
// expected-error @+1 {{device id must be non-negative, got: -5}}
sdy.mesh @negative_maximal = <[], device_ids=[-5]>

// -----

// MeshAttr::verify: the empty-axes rule holds for inline meshes too.
func.func @inline_mesh_two_ids(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{axes is empty and device_ids has more than one element}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<[], device_ids=[0, 1]>, []>]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// MeshAttr::verify: one device id without axes is a maximal mesh, which is valid.
sdy.mesh @maximal = <[], device_ids=[6]>
func.func @maximal_ok(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Shardy: MeshOp's custom assembly (ops.td) parses its mesh as an attribute, so the full
// `#sdy.mesh<...>` spelling is accepted too.
sdy.mesh @full_form = #sdy.mesh<["a"=2]>
func.func @full_form_mesh(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@full_form, [{"a"}]>}) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
