// Quantized programs the quantization rules accept: quantize, requantize (same expressed type,
// uniform_quantize_c2) and dequantize (uniform_dequantize_c1); add of per-tensor operands with one
// storage and expressed type (add_c2...add_c4); a hybrid dot_general (float lhs and result, rhs
// zero point 0, dot_general_c15, c20) and one with a per-axis rhs quantized along a
// non-contracting dimension (dot_general_c16); a size-1 per-axis broadcast whose result repeats
// the operand's parameters (broadcast_in_dim_c6); a fully quantized convolution (convolution_c28,
// c31...c33).
func.func @main(%x: tensor<2x4xf32>, %w: tensor<4x3xf32>, %img: tensor<1x4x4x2xf32>, %ker: tensor<3x3x2x2xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>, tensor<1x4x4x2xf32>) {
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2x4xf32>) -> tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-3>>
  %r = "stablehlo.uniform_quantize"(%q) : (tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<2x4x!quant.uniform<i8:f32, 2.000000e-01>>
  %s = "stablehlo.add"(%r, %r) : (tensor<2x4x!quant.uniform<i8:f32, 2.000000e-01>>, tensor<2x4x!quant.uniform<i8:f32, 2.000000e-01>>) -> tensor<2x4x!quant.uniform<i8:f32, 2.000000e-01>>
  %0 = "stablehlo.uniform_dequantize"(%s) : (tensor<2x4x!quant.uniform<i8:f32, 2.000000e-01>>) -> tensor<2x4xf32>
  %wq = "stablehlo.uniform_quantize"(%w) : (tensor<4x3xf32>) -> tensor<4x3x!quant.uniform<i8:f32, 5.000000e-02>>
  %1 = "stablehlo.dot_general"(%x, %wq) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x4xf32>, tensor<4x3x!quant.uniform<i8:f32, 5.000000e-02>>) -> tensor<2x3xf32>
  %wa = "stablehlo.uniform_quantize"(%w) : (tensor<4x3xf32>) -> tensor<4x3x!quant.uniform<i8:f32:1, {5.000000e-02,1.000000e-01,2.000000e-01}>>
  %2 = "stablehlo.dot_general"(%x, %wa) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x4xf32>, tensor<4x3x!quant.uniform<i8:f32:1, {5.000000e-02,1.000000e-01,2.000000e-01}>>) -> tensor<2x3xf32>
  %c = stablehlo.constant dense<[[1.0]]> : tensor<1x1xf32>
  %cq = "stablehlo.uniform_quantize"(%c) : (tensor<1x1xf32>) -> tensor<1x1x!quant.uniform<i8:f32:1, {1.000000e-01:2}>>
  %b = "stablehlo.broadcast_in_dim"(%cq) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<1x1x!quant.uniform<i8:f32:1, {1.000000e-01:2}>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {1.000000e-01:2,1.000000e-01:2}>>
  %3 = "stablehlo.uniform_dequantize"(%b) : (tensor<3x2x!quant.uniform<i8:f32:1, {1.000000e-01:2,1.000000e-01:2}>>) -> tensor<3x2xf32>
  %iq = "stablehlo.uniform_quantize"(%img) : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 1.000000e-01>>
  %kq = "stablehlo.uniform_quantize"(%ker) : (tensor<3x3x2x2xf32>) -> tensor<3x3x2x2x!quant.uniform<i8:f32, 1.000000e-01>>
  %cv = "stablehlo.convolution"(%iq, %kq) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, padding = dense<1> : tensor<2x2xi64>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x2x!quant.uniform<i8:f32, 1.000000e-01>>, tensor<3x3x2x2x!quant.uniform<i8:f32, 1.000000e-01>>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 1.000000e+00>>
  %4 = "stablehlo.uniform_dequantize"(%cv) : (tensor<1x4x4x2x!quant.uniform<i8:f32, 1.000000e+00>>) -> tensor<1x4x4x2xf32>
  return %0, %1, %2, %3, %4 : tensor<2x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>, tensor<1x4x4x2xf32>
}
