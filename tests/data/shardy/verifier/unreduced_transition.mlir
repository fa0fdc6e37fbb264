// Shardy: shardy/dialect/sdy/ir/utils.cc, verifyUnreducedAxesTransition (called from
// ShardingConstraintOp/ReshardOp/AllReduceOp/ReduceScatterOp::verifySymbolUses in verifiers.cc).
// RUN: sdy_opt %s -split-input-file -verify-diagnostics

// Introduced axes are checked before kept ones: "b" is new and not summed, "a" is kept.
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @introduced_before_kept(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"a"}>}) -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.sharding_constraint' op cannot introduce 'min' unreduced axes. Expected 'sum'.}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}], unreduced=min{"a", "b"}> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A sub-axis of a kept axis is kept, not introduced: only the operator change is reported.
sdy.mesh @mesh = <["a"=4]>
func.func @sub_axis_kept(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"a"}>}) -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.reshard' op cannot change the reduction operator of kept unreduced axes from sum to max.}}
  %0 = sdy.reshard %arg0 <@mesh, [{}], unreduced=max{"a":(1)2}> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The source sharding is found through a propagation barrier.
sdy.mesh @mesh = <["a"=2]>
func.func @through_barrier(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=max{"a"}>}) -> tensor<4xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=FORWARD : tensor<4xf32>
  // expected-error @+1 {{'sdy.sharding_constraint' op cannot change the reduction operator of kept unreduced axes from max to sum.}}
  %1 = sdy.sharding_constraint %0 <@mesh, [{}], unreduced={"a"}> : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// A reshard may drop unreduced axes whatever their operator.
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @reshard_drops_max(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=max{"a", "b"}>}) -> tensor<4xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"b"}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// all_reduce reduces with its own operator: a 'min' reduction of summed axes is an error.
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_reduce_wrong_operator(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"a", "b"}>}) -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op cannot reduce 'sum' unreduced axes. Expected 'min'.}}
  %0 = sdy.all_reduce min {"a"} %arg0 out_sharding=<@mesh, [{}], unreduced={"b"}> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// reduce_scatter checks the unreduced axes before its scatter axes.
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @reduce_scatter_new_unreduced(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.reduce_scatter' op cannot add new unreduced axis 'b'.}}
  %0 = sdy.reduce_scatter [{"b"}] %arg0 out_sharding=<@mesh, [{"a"}], unreduced={"b"}> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// reduce_scatter reducing max-unreduced axes with the default (sum) operator.
sdy.mesh @mesh = <["a"=2]>
func.func @reduce_scatter_wrong_operator(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=max{"a"}>}) -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.reduce_scatter' op cannot reduce 'max' unreduced axes. Expected 'sum'.}}
  %0 = sdy.reduce_scatter [{"a"}] %arg0 out_sharding=<@mesh, [{"a"}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
