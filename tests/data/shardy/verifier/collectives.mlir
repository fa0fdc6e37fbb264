// Shardy: shardy/dialect/sdy/ir/verifiers.cc, the collectives' verifySymbolUses
// (ReplicatedToUnreducedOp, ShardedToUnreducedOp, AllReduceOp).
// RUN: sdy_opt %s -split-input-file -verify-diagnostics

// ReplicatedToUnreducedOp::verifySymbolUses: the axes list can't be empty.
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @r2u_no_axes(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op r2u axes must not be empty}}
  %0 = sdy.replicated_to_unreduced {} %arg0 out_sharding=<@mesh, [{"a"}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ReplicatedToUnreducedOp::verifySymbolUses: the axes are sorted w.r.t. the mesh.
sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @r2u_unsorted(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op r2u axes are not ordered w.r.t. mesh}}
  %0 = sdy.replicated_to_unreduced {"c", "b"} %arg0 out_sharding=<@mesh, [{"a"}], unreduced={"b", "c"}> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ReplicatedToUnreducedOp::verifySymbolUses: whole dimension shardings are compared, so an open
// dimension on one side only differs.
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @r2u_open_dim(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}) -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op input and output must share the same dimension shardings}}
  %0 = sdy.replicated_to_unreduced {"b"} %arg0 out_sharding=<@mesh, [{"a"}], unreduced={"b"}> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ReplicatedToUnreducedOp::verifySymbolUses: the reduction operator is checked first.
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @r2u_max_first(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op out_sharding reduction_op must be SUM}}
  %0 = sdy.replicated_to_unreduced {} %arg0 out_sharding=<@mesh, [{}], unreduced=max{"b"}> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ShardedToUnreducedOp::verifySymbolUses: the reduction operator comes before the axes.
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @s2u_max_first(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.sharded_to_unreduced' op out_sharding reduction_op must be SUM}}
  %0 = sdy.sharded_to_unreduced [{"b"}] %arg0 out_sharding=<@mesh, [{}], unreduced=max{"a"}> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// AllReduceOp::verifySymbolUses: operand and result shardings must be equivalent (same mesh
// reference and axes), not only have the same axes.
sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @same_mesh = <["a"=2, "b"=2]>
func.func @all_reduce_other_mesh_name(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op operand and result shardings are not equivalent}}
  %0 = sdy.all_reduce {"b"} %arg0 out_sharding=<@same_mesh, [{"a"}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// AllReduceOp::verifySymbolUses: different dimension axes.
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_reduce_different_axes(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<4x4xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op operand and result shardings are not equivalent}}
  %0 = sdy.all_reduce {"b"} %arg0 out_sharding=<@mesh, [{}, {"a"}]> : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// AllReduceOp::verifySymbolUses: a replicated operand and a replicated result are equivalent
// whatever their meshes; the open dimension doesn't matter either.
sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @same_mesh = <["a"=2, "b"=2]>
func.func @all_reduce_replicated_ok(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}], unreduced={"b"}>}) -> tensor<4xf32> {
  %0 = sdy.all_reduce {"b"} %arg0 out_sharding=<@mesh, [{}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
