// Per-device programs derived by hand from Shardy's executable test sdy_all_reduce.mlir
// (mesh_2_2 = <["x"=2, "y"=2]>, device = x * 2 + y, run as 1 replica x 4 partitions).

// sdy.all_reduce {"x", "y"}: one group of all four devices.
func.func @all_reduce_xy(%arg0: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %0 = "stablehlo.all_reduce"(%arg0) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
      replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>,
      use_global_device_ids} : (tensor<4x4xi32>) -> tensor<4x4xi32>
  return %0 : tensor<4x4xi32>
}

// sdy.all_reduce {"x"}: groups {0, 2} and {1, 3}.
func.func @all_reduce_x(%arg0: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %0 = "stablehlo.all_reduce"(%arg0) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>,
      replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>,
      use_global_device_ids} : (tensor<4x4xi32>) -> tensor<4x4xi32>
  return %0 : tensor<4x4xi32>
}

func.func @main() {
  %c1 = stablehlo.constant dense<1> : tensor<4x4xi32>
  %c10 = stablehlo.constant dense<10> : tensor<4x4xi32>
  %c100 = stablehlo.constant dense<100> : tensor<4x4xi32>
  %c1000 = stablehlo.constant dense<1000> : tensor<4x4xi32>
  %res_xy:4 = "interpreter.run_parallel"(%c1, %c10, %c100, %c1000) {
    programs = [[@all_reduce_xy, @all_reduce_xy, @all_reduce_xy, @all_reduce_xy]]
  } : (tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>) ->
      (tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>)
  %expected_xy = stablehlo.constant dense<1111> : tensor<4x4xi32>
  "check.expect_eq"(%res_xy#0, %expected_xy) : (tensor<4x4xi32>, tensor<4x4xi32>) -> ()
  "check.expect_eq"(%res_xy#3, %expected_xy) : (tensor<4x4xi32>, tensor<4x4xi32>) -> ()
  %res_x:4 = "interpreter.run_parallel"(%c1, %c10, %c100, %c1000) {
    programs = [[@all_reduce_x, @all_reduce_x, @all_reduce_x, @all_reduce_x]]
  } : (tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>) ->
      (tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>)
  %expected_x_02 = stablehlo.constant dense<101> : tensor<4x4xi32>
  %expected_x_13 = stablehlo.constant dense<1010> : tensor<4x4xi32>
  "check.expect_eq"(%res_x#0, %expected_x_02) : (tensor<4x4xi32>, tensor<4x4xi32>) -> ()
  "check.expect_eq"(%res_x#2, %expected_x_02) : (tensor<4x4xi32>, tensor<4x4xi32>) -> ()
  "check.expect_eq"(%res_x#1, %expected_x_13) : (tensor<4x4xi32>, tensor<4x4xi32>) -> ()
  "check.expect_eq"(%res_x#3, %expected_x_13) : (tensor<4x4xi32>, tensor<4x4xi32>) -> ()
  return
}
