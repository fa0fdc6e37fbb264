// A broadcast to 78 GB of quantized values (i8 storage, f32 while computed on): a quantized type
// counted as no bytes, so the run allocated until the machine ran out of memory.
// RUN: run %s
// ERROR: needs 78400000000 bytes.*--max-tensor-bytes
func.func @main(%arg0: tensor<4xf32>) -> tensor<70000x70000x4x!quant.uniform<i8:f32, 0.1>> {
  %1 = stablehlo.uniform_quantize %arg0 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.1>>
  %2 = stablehlo.broadcast_in_dim %1, dims = [2] : (tensor<4x!quant.uniform<i8:f32, 0.1>>) -> tensor<70000x70000x4x!quant.uniform<i8:f32, 0.1>>
  return %2 : tensor<70000x70000x4x!quant.uniform<i8:f32, 0.1>>
}
