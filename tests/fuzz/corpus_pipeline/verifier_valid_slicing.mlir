// slice_c5 rounds up: [1:8:3] keeps 1, 4 and 7; a slice may be empty (start == limit); pad_c4
// allows negative edge padding while the size stays non-negative; dynamic_slice may take the
// whole operand and dynamic_update_slice may replace it whole.
func.func @main(%a: tensor<8xf32>, %v: tensor<f32>, %i: tensor<i32>) -> (tensor<3xf32>, tensor<0xf32>, tensor<13xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.slice %a [1:8:3] : (tensor<8xf32>) -> tensor<3xf32>
  %1 = stablehlo.slice %a [4:4] : (tensor<8xf32>) -> tensor<0xf32>
  %2 = stablehlo.pad %a, %v, low = [-1], high = [-1], interior = [1] : (tensor<8xf32>, tensor<f32>) -> tensor<13xf32>
  %3 = stablehlo.dynamic_slice %a, %i, sizes = [8] : (tensor<8xf32>, tensor<i32>) -> tensor<8xf32>
  %4 = stablehlo.dynamic_update_slice %a, %a, %i : (tensor<8xf32>, tensor<8xf32>, tensor<i32>) -> tensor<8xf32>
  return %0, %1, %2, %3, %4 : tensor<3xf32>, tensor<0xf32>, tensor<13xf32>, tensor<8xf32>, tensor<8xf32>
}
