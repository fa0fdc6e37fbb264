// with has_dynamic_root, collective_reduce's last operand holds each data operand's root: a
// rank-1 i32 tensor (TypeInference.cpp verifyCollectiveReduceOp)
func.func @main(%x: tensor<4xf32>, %root: tensor<1xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{last operand of collective_reduce with has_dynamic_root=true must be a rank-1 i32 tensor, but got 'tensor<1xf32>'}}
  %0 = "stablehlo.collective_reduce"(%x, %root) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root} : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
