// A valid mesh of a million devices (a 1000x1000 pod) with a small program: checking, inspecting,
// partitioning and reporting it must not list every device per op. The default device limit
// refuses it (see bad/sizes/huge_mesh.mlir); these cases raise it with --max-devices.
sdy.mesh @mesh = <["x"=1000, "y"=1000]>

func.func @main(%arg0: tensor<8000x8000xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8000x8000xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8000x8000xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8000x8000xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] : (tensor<8000x8000xf32>, tensor<8000x8000xf32>) -> tensor<8000x8000xf32>
  return %1 : tensor<8000x8000xf32>
}
