// The "mixing sharding modes" example of the explicit sharding guide: `g` runs under
// `auto_axes(axes='X')`, written as a named computation whose body sees X as Auto.
//
//   @functools.partial(auto_axes, axes='X')
//   def g(y):                    # y: float32[4,4@Y]
//     return y * 2
//
//   @jax.jit
//   def f(arr1):                 # arr1: float32[4@X,4@Y]
//     x = jnp.sin(arr1)          # float32[4@X,4@Y]
//     z = g(x, out_shardings=P("X", "Y"))
//     return z + 1               # float32[4@X,4@Y]
module @mixed attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>
  func.func @f(%arr1: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}]>}) -> tensor<4x4xf32> {
    %x = stablehlo.sine %arr1 : tensor<4x4xf32>
    %z = sdy.named_computation<"g">(%x) out_shardings=[<@mesh, [{"X"}, {"Y"}]>] (%y: tensor<4x4xf32>) {
      %two = stablehlo.constant dense<2.0> : tensor<4x4xf32>
      %y2 = stablehlo.multiply %y, %two : tensor<4x4xf32>
      sdy.return %y2 : tensor<4x4xf32>
    } {shardscope.axis_types = {X = "auto"}} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %one = stablehlo.constant dense<1.0> : tensor<4x4xf32>
    %out = stablehlo.add %z, %one : tensor<4x4xf32>
    return %out : tensor<4x4xf32>
  }
}
