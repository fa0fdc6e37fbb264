// Single-device functions for gradient checks against central finite differences (f64): every
// non-linear op `grad` knows, and the linear ops, each feeding a scalar loss.

// x in [-1, 1], y in [0.5, 1.5].
func.func @elementwise(%x: tensor<4xf64>, %y: tensor<4xf64>) -> tensor<f64> {
  %e = stablehlo.exponential %x : tensor<4xf64>
  %l = stablehlo.log %y : tensor<4xf64>
  %t = stablehlo.tanh %x : tensor<4xf64>
  %s = stablehlo.logistic %y : tensor<4xf64>
  %q = stablehlo.sqrt %y : tensor<4xf64>
  %r = stablehlo.rsqrt %y : tensor<4xf64>
  %mx = stablehlo.maximum %x, %y : tensor<4xf64>
  %mn = stablehlo.minimum %x, %t : tensor<4xf64>
  %d = stablehlo.divide %x, %y : tensor<4xf64>
  %p = stablehlo.power %y, %x : tensor<4xf64>
  %sn = stablehlo.sine %x : tensor<4xf64>
  %cs = stablehlo.cosine %y : tensor<4xf64>
  %ab = stablehlo.abs %x : tensor<4xf64>
  %a1 = stablehlo.multiply %e, %l : tensor<4xf64>
  %a2 = stablehlo.add %t, %s : tensor<4xf64>
  %a3 = stablehlo.multiply %q, %r : tensor<4xf64>
  %a4 = stablehlo.subtract %mx, %mn : tensor<4xf64>
  %a5 = stablehlo.multiply %d, %p : tensor<4xf64>
  %a6 = stablehlo.add %sn, %cs : tensor<4xf64>
  %a7 = stablehlo.negate %ab : tensor<4xf64>
  %b1 = stablehlo.add %a1, %a2 : tensor<4xf64>
  %b2 = stablehlo.multiply %a3, %a4 : tensor<4xf64>
  %b3 = stablehlo.add %a5, %a6 : tensor<4xf64>
  %b4 = stablehlo.multiply %b1, %a7 : tensor<4xf64>
  %c1 = stablehlo.add %b2, %b3 : tensor<4xf64>
  %c2 = stablehlo.add %c1, %b4 : tensor<4xf64>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f64>
  %sum = stablehlo.reduce(%c2 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4xf64>, tensor<f64>) -> tensor<f64>
  return %sum : tensor<f64>
}

// The linear ops around a few non-linear ones; %m only selects.
func.func @shapes(%a: tensor<2x3xf64>, %b: tensor<3x4xf64>, %m: tensor<2x4xf64>) -> tensor<f64> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
  %t = stablehlo.transpose %d, dims = [1, 0] : (tensor<2x4xf64>) -> tensor<4x2xf64>
  %r = stablehlo.reshape %t : (tensor<4x2xf64>) -> tensor<8xf64>
  %s = "stablehlo.slice"(%r) {start_indices = array<i64: 1>, limit_indices = array<i64: 8>, strides = array<i64: 2>} : (tensor<8xf64>) -> tensor<4xf64>
  %pv = stablehlo.constant dense<0.000000e+00> : tensor<f64>
  %p = stablehlo.pad %s, %pv, low = [1], high = [2], interior = [1] : (tensor<4xf64>, tensor<f64>) -> tensor<10xf64>
  %th = stablehlo.tanh %p : tensor<10xf64>
  %c = stablehlo.concatenate %th, %r, dim = 0 : (tensor<10xf64>, tensor<8xf64>) -> tensor<18xf64>
  %i = stablehlo.constant dense<3> : tensor<i32>
  %ds = stablehlo.dynamic_slice %c, %i, sizes = [8] : (tensor<18xf64>, tensor<i32>) -> tensor<8xf64>
  %sq = stablehlo.multiply %ds, %ds : tensor<8xf64>
  %j = stablehlo.constant dense<5> : tensor<i32>
  %u = stablehlo.dynamic_update_slice %c, %sq, %j : (tensor<18xf64>, tensor<8xf64>, tensor<i32>) -> tensor<18xf64>
  %cv = stablehlo.convert %u : tensor<18xf64>
  %bc = stablehlo.broadcast_in_dim %d, dims = [0, 2] : (tensor<2x4xf64>) -> tensor<2x3x4xf64>
  %bs = stablehlo.broadcast_in_dim %cv, dims = [1] : (tensor<18xf64>) -> tensor<2x18xf64>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f64>
  %half = stablehlo.constant dense<5.000000e-01> : tensor<2x4xf64>
  %gt = "stablehlo.compare"(%m, %half) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2x4xf64>, tensor<2x4xf64>) -> tensor<2x4xi1>
  %e = stablehlo.exponential %d : tensor<2x4xf64>
  %sel = stablehlo.select %gt, %d, %e : tensor<2x4xi1>, tensor<2x4xf64>
  %ninf = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
  %mx = stablehlo.reduce(%bc init: %ninf) applies stablehlo.maximum across dimensions = [1, 2] : (tensor<2x3x4xf64>, tensor<f64>) -> tensor<2xf64>
  %s1 = stablehlo.reduce(%bs init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x18xf64>, tensor<f64>) -> tensor<f64>
  %s2 = stablehlo.reduce(%sel init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x4xf64>, tensor<f64>) -> tensor<f64>
  %s3 = stablehlo.reduce(%mx init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<2xf64>, tensor<f64>) -> tensor<f64>
  %s12 = stablehlo.add %s1, %s2 : tensor<f64>
  %out = stablehlo.add %s12, %s3 : tensor<f64>
  return %out : tensor<f64>
}

// A batched dot_general with the contracting dims out of order, both operands differentiated.
func.func @batched_dot(%a: tensor<2x3x4xf64>, %b: tensor<2x4x5x3xf64>) -> tensor<f64> {
  %d = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [1, 2] x [3, 1] : (tensor<2x3x4xf64>, tensor<2x4x5x3xf64>) -> tensor<2x5xf64>
  %s = stablehlo.sine %d : tensor<2x5xf64>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f64>
  %sum = stablehlo.reduce(%s init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x5xf64>, tensor<f64>) -> tensor<f64>
  return %sum : tensor<f64>
}

// Not differentiable: a non-scalar result.
func.func @vector_result(%x: tensor<4xf64>) -> tensor<4xf64> {
  %e = stablehlo.exponential %x : tensor<4xf64>
  return %e : tensor<4xf64>
}

// Not linear in %x.
func.func @not_linear(%x: tensor<4xf64>) -> tensor<4xf64> {
  %e = stablehlo.exponential %x : tensor<4xf64>
  return %e : tensor<4xf64>
}

// Affine, not linear, in %x; %n is not a float.
func.func @affine(%x: tensor<4xf64>, %n: tensor<4xi32>) -> tensor<4xf64> {
  %one = stablehlo.constant dense<1.000000e+00> : tensor<4xf64>
  %y = stablehlo.add %x, %one : tensor<4xf64>
  return %y : tensor<4xf64>
}
