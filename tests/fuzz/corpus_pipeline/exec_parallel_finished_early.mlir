// Device 2 returns without joining the all_reduce the other devices wait in.
func.func @reduce(%x: tensor<i32>) -> tensor<i32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
      replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

func.func @skip(%x: tensor<i32>) -> tensor<i32> {
  return %x : tensor<i32>
}

func.func @main() {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %r:3 = "interpreter.run_parallel"(%c, %c, %c) {programs = [[@reduce, @reduce, @skip]]}
      : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>)
  return
}
