// jax jax/_src/lax/control_flow/loops.py::_check_carry_type (the TypeError "carry input and carry output must have equal types" with its `jax.lax.pcast(..., ('x',), to='varying')` hint; docs/notebooks/shard_map.md#scan-vma): an invariant initial carry to which the body adds a varying value. pcast leaves no op, so the text cannot prove JAX refused it: a warning in JAX's words, and the loop is read as lifted.
// NUMPY: r[0] = 2 * a[0]
// CLI check: warning: while_loop body function carry input and carry output must have equal types, but they differ:
// CLI check: The input carry at path [1] has type float32[2] but the corresponding output carry component has type float32[2]{V:x}, so the manual axis types do not match.
// CLI check: This might be fixed by applying `jax.lax.pcast(..., ('x',), to='varying')`, to the initial carry value corresponding to the input carry at path [1].
// CLI check: in the body, varies over mesh axis 'x' because in_shardings[0] of the manual computation at line 11 names it
// CLI check: stablehlo.while  operand #1  over 'x'  (loop carry)
// CLI-NOT check: error:
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
    %i0 = stablehlo.constant dense<0> : tensor<i32>
    %acc0 = stablehlo.constant dense<0.0> : tensor<2xf32>
    %r:2 = stablehlo.while(%i = %i0, %acc = %acc0) : tensor<i32>, tensor<2xf32>
     cond {
      %n = stablehlo.constant dense<2> : tensor<i32>
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
