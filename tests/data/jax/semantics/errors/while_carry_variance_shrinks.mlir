// jax jax/_src/lax/control_flow/loops.py::_check_carry_type (no pcast hint when the output carry varies over fewer axes: `out_aval.mat.varying - in_aval.mat.varying` is empty): a varying initial carry that the body replaces by its psum comes back invariant. A pvary in the body would leave no op, so this is a warning in JAX's words; the carry keeps varying over 'x'.
// NUMPY: r[0] = np.tile(a[0].reshape(4, 2).sum(axis=0) * 4, 4)
// CLI check: The input carry at path [1] has type float32[2]{V:x} but the corresponding output carry component has type float32[2], so the manual axis types do not match.
// CLI check: Revise the function so that all output types match the corresponding input types.
// CLI-NOT check: This might be fixed by
// CLI-NOT check: error:
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
    %i0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %i0, %acc = %a) : tensor<i32>, tensor<2xf32>
     cond {
      %n = stablehlo.constant dense<2> : tensor<i32>
      %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      %s = "stablehlo.all_reduce"(%acc) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %t = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %t : tensor<f32>
      }) : (tensor<2xf32>) -> tensor<2xf32>
      stablehlo.return %i1, %s : tensor<i32>, tensor<2xf32>
    }
    sdy.return %r#1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
