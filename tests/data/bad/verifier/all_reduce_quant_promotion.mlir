// all_reduce_c5: a quantized reducer's accumulator keeps its init value's expressed type (f32
// here, not f64); only the storage may widen (TypeInference.cpp isPromotableElementType)
func.func @main(%x: tensor<!quant.uniform<i8:f32, 2.000000e+00:15>>) -> tensor<!quant.uniform<i32:f64, 2.000000e+00:15>> {
  // expected-error@+1 {{The element-type of reduction-region's result type at index 0 is expected to be promotable from the op's corresponding init-value element-type: 'tensor<!quant.uniform<i32:f64, 2.000000e+00:15>>' vs 'tensor<!quant.uniform<i8:f32, 2.000000e+00:15>>'}}
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<!quant.uniform<i32:f64, 2.000000e+00:15>>, %b: tensor<!quant.uniform<i32:f64, 2.000000e+00:15>>):
    %s = stablehlo.add %a, %b : tensor<!quant.uniform<i32:f64, 2.000000e+00:15>>
    stablehlo.return %s : tensor<!quant.uniform<i32:f64, 2.000000e+00:15>>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<!quant.uniform<i8:f32, 2.000000e+00:15>>) -> tensor<!quant.uniform<i32:f64, 2.000000e+00:15>>
  return %0 : tensor<!quant.uniform<i32:f64, 2.000000e+00:15>>
}
