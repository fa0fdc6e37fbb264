// Quantized shape ops and spellings the rules accept: one type however it is written (`i8` and
// `i8<-128:127>`, `0.5` and `5.000000e-01:0`), a per-axis transpose whose result is quantized
// where the permutation puts the operand's dimension (transpose_c4), a per-axis reshape that keeps
// the quantized dimension's size and the product before it (reshape_c3), a per-tensor
// dynamic_reshape (dynamic_reshape_c1), a bitcast of 8-bit storage to i8 (bitcast_convert_c1), and
// a per-axis add (add_c6).
func.func @main(%xf: tensor<2x3xf32>, %yf: tensor<6xf32>) -> (tensor<3x2xf32>, tensor<1x2x3x1xf32>, tensor<2x3xf32>, tensor<6xi8>, tensor<2x3xf32>) {
  %x = "stablehlo.uniform_quantize"(%xf) : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8<-128:127>:f32:1, {0.5,0.25:1,2.0}>>
  %y = "stablehlo.uniform_quantize"(%yf) : (tensor<6xf32>) -> tensor<6x!quant.uniform<i8:f32, 5.000000e-01:0>>
  %t = "stablehlo.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5,0.25:1,2.0}>>) -> tensor<3x2x!quant.uniform<i8:f32:0, {0.5,0.25:1,2.0}>>
  %r = "stablehlo.reshape"(%x) : (tensor<2x3x!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01:1,2.000000e+00}>>) -> tensor<1x2x3x1x!quant.uniform<i8:f32:2, {0.5,0.25:1,2.0}>>
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %d = "stablehlo.dynamic_reshape"(%y, %shape) : (tensor<6x!quant.uniform<i8:f32, 0.5>>, tensor<2xi64>) -> tensor<2x3x!quant.uniform<i8<-128:127>:f32, 0.5>>
  %b = "stablehlo.bitcast_convert"(%y) : (tensor<6x!quant.uniform<i8:f32, 0.5>>) -> tensor<6xi8>
  %s = "stablehlo.add"(%x, %x) : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5,0.25:1,2.0}>>, tensor<2x3x!quant.uniform<i8:f32:1, {0.5,0.25:1,2.0}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5,0.25:1,2.0}>>
  %0 = "stablehlo.uniform_dequantize"(%t) : (tensor<3x2x!quant.uniform<i8:f32:0, {0.5,0.25:1,2.0}>>) -> tensor<3x2xf32>
  %1 = "stablehlo.uniform_dequantize"(%r) : (tensor<1x2x3x1x!quant.uniform<i8:f32:2, {0.5,0.25:1,2.0}>>) -> tensor<1x2x3x1xf32>
  %2 = "stablehlo.uniform_dequantize"(%d) : (tensor<2x3x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x3xf32>
  %4 = "stablehlo.uniform_dequantize"(%s) : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5,0.25:1,2.0}>>) -> tensor<2x3xf32>
  return %0, %1, %2, %b, %4 : tensor<3x2xf32>, tensor<1x2x3x1xf32>, tensor<2x3xf32>, tensor<6xi8>, tensor<2x3xf32>
}
