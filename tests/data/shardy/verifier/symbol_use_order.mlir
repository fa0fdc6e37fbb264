// Shardy: shardy/dialect/sdy/ir/verifiers.cc — ManualComputationOp::verify runs in MLIR's op walk,
// ShardingConstraintOp::verifySymbolUses only once the whole module verified (SymbolTable trait).
// RUN: sdy_opt %s -split-input-file -verify-diagnostics

// The constraint's bad axis comes first in the text, but the manual computation's verify() error
// (a manual axis bound twice) is reported: symbol uses are verified last.
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @verify_before_symbol_uses(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"zz"}]> : tensor<8xf32>
  // expected-note @+1 {{parent bounding this axis as manual}}
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    // expected-error @+1 {{'sdy.manual_computation' op operates on axis "a" which is already bound by a parent sdy.manual_computation op}}
    %2 = sdy.manual_computation(%arg1) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"a"} (%arg2: tensor<4xf32>) {
      sdy.return %arg2 : tensor<4xf32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %2 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Without a verify() error, the symbol-use error is reported.
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @symbol_uses_only(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.sharding_constraint' op unknown axis name: "zz"}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"zz"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// verifyTensorShardingAttr: an unreduced axis bound as manual by an enclosing manual computation
// is an error too (`anyOfAxisRef` covers unreduced axes).
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @unreduced_manual_axis(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    // expected-note @-1 {{parent bounding this axis as manual}}
    // expected-error @+1 {{'stablehlo.negate' op result - operates on axis "a" which is already bound by a parent sdy.manual_computation op}}
    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"a"}>]>} : tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
