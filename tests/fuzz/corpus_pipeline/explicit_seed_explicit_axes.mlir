// `explicit_axes` on an all-Auto mesh (the guide's `explicit_g`): inside, the sharding is part
// of the type; outside, types show no sharding at all.
//
//   auto_mesh = jax.make_mesh((2, 4), ("X", "Y"), axis_types=(AxisType.Auto, AxisType.Auto))
//
//   @functools.partial(explicit_axes, axes=('X', 'Y'))
//   def explicit_g(y):           # y: float32[4@X,4@Y]
//     return y * 2               # float32[4@X,4@Y]
//
//   @jax.jit
//   def f(arr1):
//     x = jnp.sin(arr1)
//     z = explicit_g(x, in_shardings=P("X", "Y"))
//     return z + 1
module @explicit_axes attributes {shardscope.axis_types = {mesh = {X = "auto", Y = "auto"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>
  func.func @f(%arr1: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}]>}) -> tensor<4x4xf32> {
    %x = stablehlo.sine %arr1 : tensor<4x4xf32>
    %z = sdy.named_computation<"explicit_g">(%x) in_shardings=[<@mesh, [{"X"}, {"Y"}]>] (%y: tensor<4x4xf32>) {
      %two = stablehlo.constant dense<2.0> : tensor<4x4xf32>
      %z_inner = stablehlo.multiply %y, %two : tensor<4x4xf32>
      sdy.return %z_inner : tensor<4x4xf32>
    } {shardscope.axis_types = {X = "explicit", Y = "explicit"}} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %one = stablehlo.constant dense<1.0> : tensor<4x4xf32>
    %out = stablehlo.add %z, %one : tensor<4x4xf32>
    return %out : tensor<4x4xf32>
  }
}
