// A psum over one axis of a 2x2 mesh (a module runs on one mesh, so it has its own file).
sdy.mesh @mesh2 = <["i"=2, "j"=2]>

// psum over 'j' only, on a 2x2 mesh: a varying-over-{i,j} value becomes varying over {i}.
func.func @two_axes(%x: tensor<4x4xf32>) -> tensor<4x2xf32> {
  %y = sdy.manual_computation(%x) in_shardings=[<@mesh2, [{"i"}, {"j"}]>] out_shardings=[<@mesh2, [{"i"}, {}]>] manual_axes={"i", "j"} (%xb: tensor<2x2xf32>) {
    %p = "stablehlo.all_reduce"(%xb) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %sum = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %sum : tensor<f32>
    }) : (tensor<2x2xf32>) -> tensor<2x2xf32>
    sdy.return %p : tensor<2x2xf32>
  } : (tensor<4x4xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
