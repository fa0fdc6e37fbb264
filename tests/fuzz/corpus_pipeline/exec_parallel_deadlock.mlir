// Devices 0 and 1 run @reduce, device 2 runs @gather: the collectives never match.
func.func @reduce(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

func.func @gather(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64,
      replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<2xi32>) -> tensor<6xi32>
  %1 = "stablehlo.slice"(%0) {start_indices = array<i64: 0>, limit_indices = array<i64: 2>,
      strides = array<i64: 1>} : (tensor<6xi32>) -> tensor<2xi32>
  return %1 : tensor<2xi32>
}

func.func @main() {
  %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %r:3 = "interpreter.run_parallel"(%c, %c, %c) {programs = [[@reduce], [@reduce], [@gather]]}
      : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  return
}
