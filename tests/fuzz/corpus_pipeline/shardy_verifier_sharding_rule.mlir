// Shardy: shardy/dialect/sdy/ir/verifiers.cc, verifyOpShardingRuleAttr.
// RUN: sdy_opt %s -split-input-file -verify-diagnostics

// The reduction-factor check comes last, after the unused-factor check (both fail here).
func.func @unused_factor_first(%arg0: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' op has factor k=5 that isn't used in operand and result mappings}}
  %0 = stablehlo.custom_call @f(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i]) {i=2, j=3, k=5} reduction={i}>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// An error of an earlier op comes before a reduction factor in the results of a later one: the
// check belongs to the op's verification, not to parsing the attribute.
sdy.mesh @mesh = <["a"=2]>
func.func @earlier_op_first(%arg0: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.negate' op result - unknown axis name: "b"}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>} : tensor<2x3xf32>
  %1 = stablehlo.custom_call @f(%0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i]) {i=2, j=3} reduction={i}>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
