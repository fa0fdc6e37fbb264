// A per-device branch on the partition id: device 0 enters an all-reduce with device 1, which
// takes the other branch and never joins. The run must stop with an error naming both.
sdy.mesh @mesh = <["x"=2]>

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%b: tensor<2xf32>) {
    %p = stablehlo.partition_id : tensor<ui32>
    %i = stablehlo.convert %p : (tensor<ui32>) -> tensor<i32>
    %y = "stablehlo.case"(%i) ({
      %s = "stablehlo.all_reduce"(%b) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%u: tensor<f32>, %v: tensor<f32>):
        %sum = stablehlo.add %u, %v : tensor<f32>
        stablehlo.return %sum : tensor<f32>
      }) : (tensor<2xf32>) -> tensor<2xf32>
      stablehlo.return %s : tensor<2xf32>
    }, {
      stablehlo.return %b : tensor<2xf32>
    }) : (tensor<i32>) -> tensor<2xf32>
    sdy.return %y : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
