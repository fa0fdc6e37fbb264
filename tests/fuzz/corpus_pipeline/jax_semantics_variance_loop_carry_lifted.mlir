// jax jax/_src/lax/control_flow/loops.py::_check_carry_type (a carry whose variance grows must start varying; JAX suggests jax.lax.pcast(..., to='varying') on the initial value, which leaves no op): the invariant initial carry is read as lifted, shown as a loop-carry pbroadcast.
// NUMPY: r[0] = 3 * a[0]
// CLI check: stablehlo.while  operand #1  over 'x'  (loop carry)
// CLI check: diagnostics: none
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
    %i0 = stablehlo.constant dense<0> : tensor<i32>
    %acc0 = stablehlo.constant dense<0.0> : tensor<2xf32>
    %r:2 = stablehlo.while(%i = %i0, %acc = %acc0) : tensor<i32>, tensor<2xf32>
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      %acc1 = stablehlo.add %acc, %a : tensor<2xf32>
      stablehlo.return %i1, %acc1 : tensor<i32>, tensor<2xf32>
    }
    sdy.return %r#1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
