// A scalar predicate selects whole tensors (select_c1), clamp takes scalar bounds (clamp_c1/c2),
// abs of a complex value is real (abs_c2), reduce_precision may keep no mantissa bit
// (reduce_precision_c3) and bitcast_convert splits a wide element over a minor dimension.
func.func @main(%p: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf32>, %lo: tensor<f32>, %hi: tensor<f32>, %z: tensor<2xcomplex<f32>>) -> (tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4x2xf16>, tensor<4xi1>) {
  %0 = stablehlo.select %p, %a, %b : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.clamp %lo, %a, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = stablehlo.abs %z : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %3 = stablehlo.reduce_precision %a, format = e5m0 : tensor<4xf32>
  %4 = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4x2xf16>
  %5 = stablehlo.compare GT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4x2xf16>, tensor<4xi1>
}
