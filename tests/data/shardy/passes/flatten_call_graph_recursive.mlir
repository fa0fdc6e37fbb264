// Shardy: shardy/dialect/sdy/ir/utils.cc, cloneFuncRecursively (used by FlattenCallGraphPass)
// copies a function together with everything it calls, which never ends when the call graph has
// a cycle; such a module is refused at the call that closes the cycle instead.
// RUN: sdy_opt %s -sdy-propagation-pipeline -verify-diagnostics

sdy.mesh @mesh = <["a"=2]>

func.func @main(%arg0: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xi32> {
  %0 = call @f(%arg0) : (tensor<8xi32>) -> tensor<8xi32>
  %1 = call @f(%0) : (tensor<8xi32>) -> tensor<8xi32>
  return %1 : tensor<8xi32>
}

func.func private @f(%arg0: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{calls @f, which is already being called: a recursive call graph cannot be flattened}}
  %0 = call @f(%arg0) : (tensor<8xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}
