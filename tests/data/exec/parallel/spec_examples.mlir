// The StableHLO specification's examples for the collectives, run through run_parallel and
// checked with the expected values the spec gives.
func.func @all_to_all(%x: tensor<2x4xi64>) -> tensor<4x2xi64> {
  %0 = "stablehlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64,
      split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
      : (tensor<2x4xi64>) -> tensor<4x2xi64>
  return %0 : tensor<4x2xi64>
}

func.func @reduce_scatter(%x: tensor<2x4xi64>) -> tensor<2x2xi64> {
  %0 = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>}
      : (tensor<2x4xi64>) -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

func.func @permute(%x: tensor<2x2xi64>) -> tensor<2x2xi64> {
  %0 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 2]]>
      : tensor<2x2xi64>} : (tensor<2x2xi64>) -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

func.func @broadcast(%x: tensor<1x2xi64>) -> tensor<1x2xi64> {
  %0 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[2, 1]]> : tensor<1x2xi64>}
      : (tensor<1x2xi64>) -> tensor<1x2xi64>
  return %0 : tensor<1x2xi64>
}

func.func @main() {
  %a = stablehlo.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi64>
  %b = stablehlo.constant dense<[[9, 10, 11, 12], [13, 14, 15, 16]]> : tensor<2x4xi64>
  %t:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@all_to_all], [@all_to_all]]}
      : (tensor<2x4xi64>, tensor<2x4xi64>) -> (tensor<4x2xi64>, tensor<4x2xi64>)
  "check.expect_eq_const"(%t#0) {value = dense<[[1, 2], [5, 6], [9, 10], [13, 14]]> : tensor<4x2xi64>} : (tensor<4x2xi64>) -> ()
  "check.expect_eq_const"(%t#1) {value = dense<[[3, 4], [7, 8], [11, 12], [15, 16]]> : tensor<4x2xi64>} : (tensor<4x2xi64>) -> ()
  %s:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@reduce_scatter], [@reduce_scatter]]}
      : (tensor<2x4xi64>, tensor<2x4xi64>) -> (tensor<2x2xi64>, tensor<2x2xi64>)
  "check.expect_eq_const"(%s#0) {value = dense<[[10, 12], [18, 20]]> : tensor<2x2xi64>} : (tensor<2x2xi64>) -> ()
  "check.expect_eq_const"(%s#1) {value = dense<[[14, 16], [22, 24]]> : tensor<2x2xi64>} : (tensor<2x2xi64>) -> ()
  %p0 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %p1 = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
  %p2 = stablehlo.constant dense<[[9, 10], [11, 12]]> : tensor<2x2xi64>
  %p:3 = "interpreter.run_parallel"(%p0, %p1, %p2) {programs = [[@permute], [@permute], [@permute]]}
      : (tensor<2x2xi64>, tensor<2x2xi64>, tensor<2x2xi64>) -> (tensor<2x2xi64>, tensor<2x2xi64>, tensor<2x2xi64>)
  "check.expect_eq_const"(%p#0) {value = dense<0> : tensor<2x2xi64>} : (tensor<2x2xi64>) -> ()
  "check.expect_eq"(%p#1, %p0) : (tensor<2x2xi64>, tensor<2x2xi64>) -> ()
  check.expect_eq %p#2, %p1 : tensor<2x2xi64>
  %b0 = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi64>
  %b1 = stablehlo.constant dense<[[3, 4]]> : tensor<1x2xi64>
  %b2 = stablehlo.constant dense<[[5, 6]]> : tensor<1x2xi64>
  %b3 = stablehlo.constant dense<[[7, 8]]> : tensor<1x2xi64>
  %c:4 = "interpreter.run_parallel"(%b0, %b1, %b2, %b3) {programs = [[@broadcast], [@broadcast], [@broadcast], [@broadcast]]}
      : (tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>) -> (tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>)
  "check.expect_eq_const"(%c#0) {value = dense<0> : tensor<1x2xi64>} : (tensor<1x2xi64>) -> ()
  "check.expect_eq"(%c#1, %b2) : (tensor<1x2xi64>, tensor<1x2xi64>) -> ()
  "check.expect_eq"(%c#2, %b2) : (tensor<1x2xi64>, tensor<1x2xi64>) -> ()
  "check.expect_eq_const"(%c#3) {value = dense<0> : tensor<1x2xi64>} : (tensor<1x2xi64>) -> ()
  return
}
