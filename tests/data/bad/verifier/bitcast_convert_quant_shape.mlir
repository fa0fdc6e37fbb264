// bitcast_convert_c1 (TypeInference.cpp verifyBitcastConvertOp): a quantized operand has its storage type's width
func.func @main(%a: tensor<2x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xi32> {
  // expected-error@+1 {{requires compatible bit widths. Got: 'tensor<2x2x!quant.uniform<i8:f32, 5.000000e-01>>' and 'tensor<2xi32>', but 8 * 2 != 32.}}
  %0 = "stablehlo.bitcast_convert"(%a) : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
