// Base.td StableHLO_UniformQuantizedSignedInt: quantized storage is signless or unsigned (`si8` is neither)
func.func @main(%a: tensor<4x!quant.uniform<si8:f32, 1.0>>) -> tensor<4xf32> {
  // expected-error@+1 {{'stablehlo.uniform_dequantize' op operand #0 must be ranked tensor of float, pred, integer, complex, per-tensor or per-axis integer quantized values, but got 'tensor<4x!quant.uniform<si8:f32, 1.000000e+00>>'}}
  %0 = "stablehlo.uniform_dequantize"(%a) : (tensor<4x!quant.uniform<si8:f32, 1.0>>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
